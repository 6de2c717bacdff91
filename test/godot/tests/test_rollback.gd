extends "res://test_case.gd"
# Rollback resimulation in stock Godot: Maul3D.step_space, manual step mode, signal
# blocking, and the Maul3DRollback node (ring of snapshots, rollback_to, resimulate),
# with rigid bodies, an Area3D, a CharacterBody3D moved by move_and_slide, spawned and
# freed bodies.


## A world of its own (its own Maul3D space).
func new_world() -> SubViewport:
	var vp := SubViewport.new()
	vp.world_3d = World3D.new()
	var _space := vp.world_3d.space
	add_child(vp)
	return vp


func box(parent: Node, pos: Vector3, half: Vector3, rigid: bool) -> PhysicsBody3D:
	var body: PhysicsBody3D = RigidBody3D.new() if rigid else StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var b := BoxShape3D.new()
	b.size = half * 2.0
	shape.shape = b
	body.add_child(shape)
	body.position = pos
	parent.add_child(body)
	return body


func ball(parent: Node, pos: Vector3, velocity: Vector3) -> RigidBody3D:
	var body := RigidBody3D.new()
	var shape := CollisionShape3D.new()
	var s := SphereShape3D.new()
	s.radius = 0.2
	shape.shape = s
	body.add_child(shape)
	body.position = pos
	body.linear_velocity = velocity
	parent.add_child(body)
	return body


func character(parent: Node, pos: Vector3) -> CharacterBody3D:
	var c := CharacterBody3D.new()
	var shape := CollisionShape3D.new()
	var cap := CapsuleShape3D.new()
	cap.radius = 0.3
	cap.height = 1.6
	shape.shape = cap
	c.add_child(shape)
	c.position = pos
	parent.add_child(c)
	return c


func rollback_node(parent: Node, capacity: int) -> Maul3DRollback:
	var r := Maul3DRollback.new()
	r.capacity = capacity
	parent.add_child(r)
	return r


func test_a_space_steps_once_per_frame_automatically_and_only_when_told_in_manual_mode() -> void:
	var w := new_world()
	var s := w.world_3d.space
	box(w, Vector3(0, 2, 0), Vector3(0.5, 0.5, 0.5), true)
	check(not Maul3D.is_space_manual_step(s), "a new space is in Godot's automatic step")
	await ticks(1)
	var per_frame := []
	for i in 5:
		var n: int = Maul3D.space_step_count(s)
		await ticks(1)
		per_frame.append(Maul3D.space_step_count(s) - n)
	check(per_frame == [1, 1, 1, 1, 1], "automatic: one step per physics frame (%s)" % [per_frame])
	check(Maul3D.set_space_manual_step(s, true), "manual step mode is set")
	check(Maul3D.is_space_manual_step(s), "the space reports manual step mode")
	per_frame = []
	for i in 5:
		var n: int = Maul3D.space_step_count(s)
		await ticks(1)
		per_frame.append(Maul3D.space_step_count(s) - n)
	check(per_frame == [0, 0, 0, 0, 0], "manual, no step_space: no step per frame (%s)" % [per_frame])
	per_frame = []
	for i in 5:
		var n: int = Maul3D.space_step_count(s)
		for k in 3:
			check(Maul3D.step_space(s, 1.0 / 60.0), "step_space steps")
		await ticks(1)
		per_frame.append(Maul3D.space_step_count(s) - n)
	check(per_frame == [3, 3, 3, 3, 3], "manual, 3 step_space calls a frame: 3 steps per frame (%s)" % [per_frame])
	Maul3D.set_space_manual_step(s, false)
	var n0: int = Maul3D.space_step_count(s)
	await ticks(3)
	check(Maul3D.space_step_count(s) - n0 == 3, "back in automatic mode: one step per frame")


func test_step_space_refuses_bad_input_and_changes_nothing() -> void:
	var w := new_world()
	var s := w.world_3d.space
	Maul3D.set_space_manual_step(s, true)
	var n: int = Maul3D.space_step_count(s)
	check(not Maul3D.step_space(s, 0.0), "a delta of 0 is refused")
	check(not Maul3D.step_space(s, -1.0), "a negative delta is refused")
	check(not Maul3D.step_space(s, INF), "an infinite delta is refused")
	check(not Maul3D.step_space(RID(), 1.0 / 60.0), "an invalid space is refused")
	check(Maul3D.space_step_count(s) == n, "nothing stepped")


func test_step_space_runs_integrate_forces_once_per_step() -> void:
	var w := new_world()
	var s := w.world_3d.space
	Maul3D.set_space_manual_step(s, true)
	var body: RigidBody3D = load("res://integrator_body.gd").new()
	body.custom_integrator = true
	body.gravity_scale = 0.0
	var shape := CollisionShape3D.new()
	shape.shape = SphereShape3D.new()
	body.add_child(shape)
	w.add_child(body)
	await ticks(1)
	var calls0: int = body.calls
	var x0 := body.position.x
	for i in 30:
		Maul3D.step_space(s, 1.0 / 60.0)
	check(body.calls - calls0 == 30, "_integrate_forces ran once per step_space (%d times for 30)" % (body.calls - calls0))
	check(absf(body.position.x - x0 - 0.5) < 0.02, "the node moved as _integrate_forces said (%f m)" % (body.position.x - x0))


var entered := 0


func _on_entered(_body: Node) -> void:
	entered += 1


func test_step_space_moves_nodes_and_keeps_area_overlaps_with_signals_fired_or_blocked() -> void:
	for block in [false, true]:
		var w := new_world()
		var s := w.world_3d.space
		box(w, Vector3(0, -0.5, 0), Vector3(5, 0.5, 5), false)
		var b := box(w, Vector3(0, 3, 0), Vector3(0.3, 0.3, 0.3), true)
		var area := Area3D.new()
		var shape := CollisionShape3D.new()
		var bs := BoxShape3D.new()
		bs.size = Vector3(2, 1, 2)
		shape.shape = bs
		area.add_child(shape)
		area.position = Vector3(0, 0.5, 0)
		w.add_child(area)
		entered = 0
		area.body_entered.connect(_on_entered)
		Maul3D.set_space_manual_step(s, true)
		await ticks(1)
		check(Maul3D.set_space_block_signals(s, block), "signal blocking is set")
		check(Maul3D.is_space_blocking_signals(s) == block, "the space reports its signal blocking")
		var y0 := b.position.y
		# 90 steps inside one frame.
		for i in 90:
			Maul3D.step_space(s, 1.0 / 60.0)
		check(b.position.y < y0 - 2.0, "the rigid body node followed the steps (y %f -> %f)" % [y0, b.position.y])
		check(b in area.get_overlapping_bodies(), "the area lists the box that fell into it (blocked: %s)" % block)
		check(entered == (0 if block else 1), "body_entered fired %d times (blocked: %s)" % [entered, block])
		Maul3D.set_space_block_signals(s, false)
		check(area.get_signal_connection_list("body_entered").size() == 1, "signals stay connected")
		check(not area.is_blocking_signals() and not b.is_blocking_signals(), "the nodes' own signal blocking is put back")
		w.queue_free()
		await ticks(1)


## The game of the rollback tests: a floor, a pile of boxes, a player box pushed by the
## input's force, a character walking by move_and_slide at the input's velocity.
class Game:
	var world: SubViewport
	var player: RigidBody3D
	var boxes: Array = []
	var hero: CharacterBody3D
	var rollback: Maul3DRollback
	## Node-side state the game saves per tick: the character's transform and velocity.
	var hero_states := {}
	var inputs: Array = []

	func input_at(tick: int) -> Vector3:
		return inputs[tick] if tick < inputs.size() else Vector3.ZERO

	## Tick `tick`'s inputs (the input callable of Maul3DRollback.resimulate).
	func apply(tick: int) -> void:
		var i := input_at(tick)
		player.apply_central_force(Vector3(i.x, 0, i.z) * 40.0)
		hero.velocity.x = i.z * 3.0
		hero.velocity.z = -i.x * 3.0
		hero.velocity.y -= 9.8 / 60.0
		hero.move_and_slide()

	func save_hero(tick: int) -> void:
		hero_states[tick] = [hero.global_transform, hero.velocity]

	func load_hero(tick: int) -> void:
		hero.global_transform = hero_states[tick][0]
		hero.velocity = hero_states[tick][1]

	## One tick forward: inputs, step, capture, the character's state saved.
	func advance() -> void:
		var t := rollback.get_current_tick()
		rollback.resimulate(t + 1, apply)
		save_hero(t + 1)

	func roll_back_and_resimulate(to: int, until: int) -> bool:
		if not rollback.rollback_to(to):
			return false
		load_hero(to)
		for t in range(to, until):
			rollback.resimulate(t + 1, apply)
			save_hero(t + 1)
		return true

	func transforms() -> Array:
		var out := [player.global_transform, hero.global_transform]
		for b in boxes:
			out.append(b.global_transform)
		return out


func make_game(vp: SubViewport, inputs: Array) -> Game:
	var g := Game.new()
	g.world = vp
	g.inputs = inputs
	box(vp, Vector3(0, -0.5, 0), Vector3(10, 0.5, 10), false)
	for i in 6:
		var b := box(vp, Vector3(1.5 + (i % 2) * 0.7, 0.35 + (i / 2) * 0.72, 0.2 * (i % 3)), Vector3(0.35, 0.35, 0.35), true)
		g.boxes.append(b)
	g.player = box(vp, Vector3(-1, 0.4, 0), Vector3(0.4, 0.4, 0.4), true)
	g.hero = character(vp, Vector3(0, 1.0, 3))
	g.rollback = rollback_node(vp, 128)
	return g


func recorded_inputs(seed: int) -> Array:
	var rng := RandomNumberGenerator.new()
	rng.seed = seed
	var out := []
	for t in 120:
		out.append(Vector3(rng.randf_range(-0.2, 1), 0, rng.randf_range(-0.5, 0.5)))
	return out


func test_a_rollback_from_tick_100_to_90_resimulated_with_the_same_inputs_matches_the_first_run() -> void:
	var inputs := recorded_inputs(7)
	var vp := new_world()
	var g := make_game(vp, inputs)
	# A second world runs the same inputs straight through, no rollback.
	var straight := make_game(new_world(), inputs)
	await ticks(1)
	check(Maul3D.is_space_manual_step(g.rollback.get_target_space()), "the rollback node put its space in manual step mode")
	g.rollback.capture(0)
	g.save_hero(0)
	straight.rollback.capture(0)
	straight.save_hero(0)
	var hashes := {}
	var at100 := []
	var start_hero := g.hero.global_transform
	for t in 100:
		g.advance()
		straight.advance()
		hashes[t + 1] = g.rollback.get_tick_hash(t + 1)
	at100 = g.transforms()
	check(g.hero.global_transform.origin.distance_to(start_hero.origin) > 0.5, "the character walked")
	check(g.hero.is_on_floor(), "the character stands on the floor")
	var moved := 0
	for b in g.boxes:
		if b.linear_velocity.length() > 0.01 or absf(b.position.y - 0.35) > 0.02 or b.position.x < 1.4 or b.position.x > 2.3:
			moved += 1
	print("  boxes disturbed by tick 100: ", moved)
	# Roll back to 90, resimulate to 100 with the same inputs.
	var t0 := Time.get_ticks_usec()
	check(g.roll_back_and_resimulate(90, 100), "rolled back to 90 and resimulated to 100")
	print("  rollback 100 -> 90 and 10 ticks resimulated: %d us (this build); a snapshot: %d bytes" % [Time.get_ticks_usec() - t0, Maul3D.snapshot(g.rollback.get_target_space()).size()])
	check(g.rollback.get_current_tick() == 100, "the world is at tick 100 again")
	check(Maul3D.space_hash(g.rollback.get_target_space()) == hashes[100], "the resimulated tick 100 has the first run's hash")
	var same := 0
	for t in range(91, 101):
		if g.rollback.get_tick_hash(t) == hashes[t]:
			same += 1
	check(same == 10, "%d of ticks 91..100 resimulated to the first run's hashes" % same)
	check(g.transforms() == at100, "every node's transform at tick 100 equals the first run's")
	# Changed inputs: another tick 100.
	var changed := inputs.duplicate()
	for t in range(92, 100):
		changed[t] = -inputs[t]
	g.inputs = changed
	check(g.roll_back_and_resimulate(90, 100), "rolled back again, resimulated with changed inputs")
	check(Maul3D.space_hash(g.rollback.get_target_space()) != hashes[100], "changed inputs give another hash at tick 100")
	check(g.transforms() != at100, "changed inputs move the nodes elsewhere")
	# The original inputs again: the original tick 100.
	g.inputs = inputs
	check(g.roll_back_and_resimulate(90, 100), "rolled back again, resimulated with the original inputs")
	check(Maul3D.space_hash(g.rollback.get_target_space()) == hashes[100], "the original inputs give the original hash again")
	check(g.transforms() == at100, "and the original node transforms")
	# On to 120, next to the world that never rolled back.
	for t in range(100, 120):
		g.advance()
		straight.advance()
	check(Maul3D.space_hash(g.rollback.get_target_space()) == Maul3D.space_hash(straight.rollback.get_target_space()), "at tick 120 the rolled-back world hashes as the straight run")
	check(g.transforms() == straight.transforms(), "at tick 120 every node transform equals the straight run's")


func test_rollback_to_a_tick_out_of_the_ring_is_refused_and_changes_nothing() -> void:
	var vp := new_world()
	var g := make_game(vp, recorded_inputs(3))
	g.rollback.capacity = 8
	await ticks(1)
	g.rollback.capture(0)
	g.save_hero(0)
	for t in 20:
		g.advance()
	var h: int = Maul3D.space_hash(g.rollback.get_target_space())
	check(g.rollback.get_oldest_tick() == 13, "the ring of 8 holds ticks 13..20 (oldest %d)" % g.rollback.get_oldest_tick())
	check(not g.rollback.rollback_to(5), "tick 5 is out of the ring")
	check(not g.rollback.rollback_to(21), "tick 21 is not captured")
	check(Maul3D.space_hash(g.rollback.get_target_space()) == h and g.rollback.get_current_tick() == 20, "nothing changed")
	check(g.rollback.rollback_to(15), "tick 15 is in the ring")
	check(not g.rollback.has_tick(16), "the ticks after the one rolled back to are forgotten")


## Spawns, frees and despawns at tick 95 in a world of boxes.
class SpawnGame:
	var world: SubViewport
	var rollback: Maul3DRollback
	var projectile: RigidBody3D = null
	var victim: RigidBody3D
	var mode := "spawn"
	var owner_test

	func apply(tick: int) -> void:
		if tick != 95:
			return
		match mode:
			"spawn":
				projectile = owner_test.ball(world, Vector3(-3, 0.5, 0), Vector3(12, 1, 0))
			"free":
				if victim != null:
					victim.free()
					victim = null
			"despawn":
				# Parked (README): out of the way, stopped, asleep, hidden; all of it
				# world state a snapshot holds, so a rollback undoes it.
				victim.global_position = Vector3(50, -50, 0)
				victim.linear_velocity = Vector3.ZERO
				victim.angular_velocity = Vector3.ZERO
				victim.sleeping = true
				victim.hide()


func spawn_game(mode: String) -> SpawnGame:
	var g := SpawnGame.new()
	g.owner_test = self
	g.mode = mode
	g.world = new_world()
	box(g.world, Vector3(0, -0.5, 0), Vector3(10, 0.5, 10), false)
	for i in 4:
		box(g.world, Vector3(1.0, 0.3 + i * 0.62, 0), Vector3(0.3, 0.3, 0.3), true)
	# On top of the stack: what it weighs on the boxes under it is in their contacts.
	g.victim = box(g.world, Vector3(1.0, 0.3 + 4 * 0.62, 0.0), Vector3(0.3, 0.3, 0.3), true) as RigidBody3D
	g.rollback = rollback_node(g.world, 64)
	return g


func run_to(g, tick: int) -> void:
	while g.rollback.get_current_tick() < tick:
		g.rollback.resimulate(g.rollback.get_current_tick() + 1, g.apply)


func test_a_projectile_spawned_at_95_and_spawned_again_in_the_resimulation_gives_the_first_runs_hash() -> void:
	var g := spawn_game("spawn")
	await ticks(1)
	g.rollback.capture(0)
	run_to(g, 100)
	var first := {}
	for t in range(90, 101):
		first[t] = g.rollback.get_tick_hash(t)
	var shot := g.projectile
	check(shot != null and shot.position.x > -2.8, "the projectile was spawned at 95 and flew")
	var first_pos := shot.global_transform
	# The game's own rollback: the projectile does not exist at tick 90.
	check(g.rollback.rollback_to(90), "rolled back to 90")
	check(Maul3D.space_hash(g.rollback.get_target_space()) == first[90], "the restored world is tick 90's")
	shot.free()
	g.projectile = null
	run_to(g, 100)
	var same := 0
	for t in range(91, 101):
		if g.rollback.get_tick_hash(t) == first[t]:
			same += 1
	check(same == 10, "%d of ticks 91..100 with the respawned projectile hash as the first run" % same)
	check(g.projectile != null and g.projectile.global_transform == first_pos, "the respawned projectile is where the first one was at tick 100")


func test_a_body_freed_at_95_is_gone_from_the_world_restored_to_90() -> void:
	var g := spawn_game("free")
	await ticks(1)
	var s: RID = g.rollback.get_target_space()
	g.rollback.capture(0)
	run_to(g, 100)
	var first100: int = g.rollback.get_tick_hash(100)
	var first90: int = g.rollback.get_tick_hash(90)
	check(g.victim == null, "the victim was freed at tick 95")
	check(g.rollback.rollback_to(90), "rolled back to 90")
	# README: a body whose Godot object is gone is removed from the restored world (it has
	# no node to show it), so that world is not tick 90's and the resimulation diverges.
	check(Maul3D.space_hash(s) != first90, "the restored world lacks the freed body: not tick 90's hash")
	run_to(g, 100)
	check(Maul3D.space_hash(s) != first100, "the resimulated tick 100 differs from the first run's")


func test_a_body_parked_at_95_instead_of_freed_rolls_back_and_resimulates_exactly() -> void:
	var g := spawn_game("despawn")
	await ticks(1)
	var s: RID = g.rollback.get_target_space()
	g.rollback.capture(0)
	run_to(g, 100)
	var first := {}
	for t in range(90, 101):
		first[t] = g.rollback.get_tick_hash(t)
	check(not g.victim.visible, "the victim was despawned at 95")
	check(g.rollback.rollback_to(90), "rolled back to 90")
	g.victim.show()
	check(Maul3D.space_hash(s) == first[90], "the restored world is tick 90's, the victim in it")
	run_to(g, 100)
	var same := 0
	for t in range(91, 101):
		if g.rollback.get_tick_hash(t) == first[t]:
			same += 1
	check(same == 10, "%d of ticks 91..100 hash as the first run" % same)


## Rebuilds inside the rollback window (README "Rebuilt bodies and settings"): a box on a
## floor frozen at 95 and unfrozen at 97; a box that gains a second CollisionShape3D at
## 95; a ball whose layers change at 95.
class RebuildGame:
	var world: SubViewport
	var rollback: Maul3DRollback
	var body: RigidBody3D
	var extra: CollisionShape3D = null
	var mode := "freeze"
	var owner_test

	func apply(tick: int) -> void:
		match mode:
			"freeze":
				if tick == 95:
					body.freeze = true
				elif tick == 97:
					body.freeze = false
			"shape":
				if tick == 95:
					extra = CollisionShape3D.new()
					var s := SphereShape3D.new()
					s.radius = 0.25
					extra.shape = s
					extra.position = Vector3(0.4, 0, 0)
					body.add_child(extra)
			"layer":
				if tick == 95:
					body.collision_layer = 2
					body.collision_mask = 2


func rebuild_game(mode: String) -> RebuildGame:
	var g := RebuildGame.new()
	g.owner_test = self
	g.mode = mode
	g.world = new_world()
	box(g.world, Vector3(0, -0.5, 0), Vector3(10, 0.5, 10), false)
	for i in 3:
		box(g.world, Vector3(-2.0 + i * 0.1, 0.3 + i * 0.7, 0), Vector3(0.3, 0.3, 0.3), true)
	# Sliding along the floor, so every tick moves it.
	g.body = box(g.world, Vector3(1.0, 0.31, 0), Vector3(0.3, 0.3, 0.3), true) as RigidBody3D
	g.body.linear_velocity = Vector3(3, 0, 0)
	g.body.physics_material_override = PhysicsMaterial.new()
	g.body.physics_material_override.friction = 0.1
	g.rollback = rollback_node(g.world, 64)
	return g


## Runs the first run to 100, rolls back to 90 and resimulates to 100; returns how many
## of ticks 91..100 hash as the first run.
func first_run_then_rollback(g: RebuildGame, reset_nodes: Callable) -> int:
	g.rollback.capture(0)
	run_to(g, 100)
	var first := {}
	for t in range(90, 101):
		first[t] = g.rollback.get_tick_hash(t)
	check(g.rollback.rollback_to(90), "rolled back to 90")
	check(Maul3D.space_hash(g.rollback.get_target_space()) == first[90], "the restored world is tick 90's")
	reset_nodes.call()
	run_to(g, 100)
	var same := 0
	for t in range(91, 101):
		if g.rollback.get_tick_hash(t) == first[t]:
			same += 1
	return same


func test_a_body_frozen_at_95_and_unfrozen_at_97_resimulates_exactly_and_keeps_moving() -> void:
	var g := rebuild_game("freeze")
	await ticks(1)
	var same := first_run_then_rollback(g, func(): pass)
	check(same == 10, "%d of ticks 91..100 hash as the first run" % same)
	# Unfreezing left it at rest (Godot's unfreeze drops the velocity): a push moves it.
	var at100 := g.body.global_position
	g.mode = "none"
	g.body.apply_central_impulse(Vector3(2, 3, 0))
	run_to(g, 110)
	check(g.body.global_position.distance_to(at100) > 0.05, "the body keeps moving after the resimulation (%s -> %s)" % [at100, g.body.global_position])
	check(PhysicsServer3D.body_get_mode(g.body.get_rid()) == PhysicsServer3D.BODY_MODE_RIGID, "the server's mode is rigid")


func test_a_rollback_into_a_freeze_gives_back_the_rigid_body_of_the_tick() -> void:
	var g := rebuild_game("freeze")
	await ticks(1)
	g.rollback.capture(0)
	run_to(g, 96)
	check(PhysicsServer3D.body_get_mode(g.body.get_rid()) == PhysicsServer3D.BODY_MODE_STATIC, "frozen at 96")
	var h90: int = g.rollback.get_tick_hash(90)
	check(g.rollback.rollback_to(90), "rolled back to 90")
	check(Maul3D.space_hash(g.rollback.get_target_space()) == h90, "the restored world is tick 90's")
	check(PhysicsServer3D.body_get_mode(g.body.get_rid()) == PhysicsServer3D.BODY_MODE_RIGID, "the records follow the world: rigid at 90")
	# The node keeps its own property (README): the game sets it back.
	g.body.freeze = false
	var at90 := g.body.global_position
	g.mode = "none"
	run_to(g, 100)
	check(g.body.global_position.distance_to(at90) > 0.05, "the body moves after the rollback (%s -> %s)" % [at90, g.body.global_position])


func test_a_body_that_gains_a_second_collision_shape_at_95_resimulates_exactly() -> void:
	var g := rebuild_game("shape")
	await ticks(1)
	var rid := g.body.get_rid()
	var same := first_run_then_rollback(g, func():
		# Which nodes exist is the game's (README): the shape added at 95 goes, and the
		# resimulation adds it again at 95.
		check(PhysicsServer3D.body_get_shape_count(rid) == 1, "the records hold tick 90's one shape")
		g.extra.free()
		g.extra = null)
	check(same == 10, "%d of ticks 91..100 hash as the first run" % same)
	check(PhysicsServer3D.body_get_shape_count(rid) == 2, "two shapes again after 95")
	var at100 := g.body.global_position
	g.mode = "none"
	run_to(g, 110)
	check(g.body.global_position.distance_to(at100) > 0.05, "the body keeps moving")


func test_a_layer_change_at_95_rolled_back_to_90_leaves_the_records_as_the_world() -> void:
	var g := rebuild_game("layer")
	await ticks(1)
	var rid := g.body.get_rid()
	g.rollback.capture(0)
	run_to(g, 100)
	check(PhysicsServer3D.body_get_collision_layer(rid) == 2, "layer 2 at 100")
	var h100: int = g.rollback.get_tick_hash(100)
	check(g.rollback.rollback_to(90), "rolled back to 90")
	check(PhysicsServer3D.body_get_collision_layer(rid) == 1 and PhysicsServer3D.body_get_collision_mask(rid) == 1, "the records hold tick 90's layer and mask")
	# A rebuild at 92 (a second shape) makes the body from the records: with tick 90's
	# layers it keeps colliding with the floor.
	g.mode = "none"
	run_to(g, 92)
	var extra := CollisionShape3D.new()
	var s := SphereShape3D.new()
	s.radius = 0.2
	extra.shape = s
	g.body.add_child(extra)
	run_to(g, 150)
	check(g.body.global_position.y > 0.2, "the body still rests on the floor (y %.2f)" % g.body.global_position.y)
	check(g.rollback.get_tick_hash(100) != h100, "another resimulation")
	# And a layer change in the resimulation takes effect: it falls through.
	g.body.collision_layer = 2
	g.body.collision_mask = 2
	run_to(g, 200)
	check(g.body.global_position.y < -1.0, "with layer and mask 2 it falls through the floor (y %.2f)" % g.body.global_position.y)
