extends "res://test_case.gd"
# Maul3D's determinism API from GDScript: per-tick state hashes, snapshot and restore,
# the WorkerThreadPool task hooks, journals and replays.


## A world of its own (its own Maul3D space, created now: World3D makes its space on
## first use, and the space reads the physics/maul3d/* settings when it is created).
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


## A floor, a tumbling pile of 12 boxes and a ball thrown into it.
func build_scene(parent: Node) -> void:
	box(parent, Vector3(0, -0.5, 0), Vector3(10, 0.5, 10), false)
	for i in 12:
		var b := box(parent, Vector3((i % 3) * 0.7 - 0.7, 1.0 + i * 0.9, (i % 2) * 0.3), Vector3(0.3, 0.3, 0.3), true)
		b.rotation = Vector3(0.1 * i, 0.2 * i, 0.05 * i)
	var ball := RigidBody3D.new()
	var shape := CollisionShape3D.new()
	var sphere := SphereShape3D.new()
	sphere.radius = 0.4
	shape.shape = sphere
	ball.add_child(shape)
	ball.position = Vector3(-4, 1, 0)
	ball.linear_velocity = Vector3(8, 2, 0.5)
	parent.add_child(ball)


## A floor and 4 layers of 6 × 6 boxes dropped on it: enough contacts per solver colour
## for the core to hand stages to the task system.
func build_big_scene(parent: Node) -> void:
	box(parent, Vector3(0, -0.5, 0), Vector3(10, 0.5, 10), false)
	for layer in 4:
		for i in 6:
			for j in 6:
				var p := Vector3(i * 0.75 - 2.0 + layer * 0.1, 0.4 + layer * 0.8, j * 0.75 - 2.0)
				box(parent, p, Vector3(0.3, 0.3, 0.3), true)


func space_of(vp: SubViewport) -> RID:
	return vp.world_3d.space


func test_the_same_scene_twice_gives_the_same_hash_every_tick() -> void:
	var a := new_world()
	var b := new_world()
	build_scene(a)
	build_scene(b)
	var differing := 0
	var distinct := {}
	for t in 240:
		await get_tree().physics_frame
		var ha: int = Maul3D.space_hash(space_of(a))
		var hb: int = Maul3D.space_hash(space_of(b))
		if ha != hb:
			differing += 1
		distinct[ha] = true
	check(differing == 0, "the two worlds' hashes differ on %d of 240 ticks" % differing)
	check(distinct.size() > 200, "the hash changes as the pile moves (%d distinct)" % distinct.size())
	check(Maul3D.compare_spaces(space_of(a), space_of(b)) == 0, "compare_spaces finds no body that differs")


func test_a_snapshot_at_tick_100_restored_reproduces_ticks_101_to_300() -> void:
	var w := new_world()
	build_scene(w)
	var s := space_of(w)
	var start: int = Maul3D.space_step_count(s)
	while Maul3D.space_step_count(s) < start + 100:
		await get_tree().physics_frame
	var at: int = Maul3D.space_step_count(s)
	var snap: PackedByteArray = Maul3D.snapshot(s)
	check(snap.size() > 0, "a snapshot was taken")
	var first := {}
	while Maul3D.space_step_count(s) < at + 200:
		await get_tree().physics_frame
		first[Maul3D.space_step_count(s)] = Maul3D.space_hash(s)
	check(Maul3D.restore(s, snap), "the snapshot restores")
	check(Maul3D.space_step_count(s) == at, "the world is back at step %d" % at)
	var mismatched := 0
	var compared := 0
	while Maul3D.space_step_count(s) < at + 200:
		await get_tree().physics_frame
		var n: int = Maul3D.space_step_count(s)
		if first.has(n):
			compared += 1
			if first[n] != Maul3D.space_hash(s):
				mismatched += 1
	check(compared >= 190, "the replayed ticks were compared (%d)" % compared)
	check(mismatched == 0, "%d of the %d replayed ticks hash differently" % [mismatched, compared])


func test_a_restore_moves_rigid_body_nodes_back() -> void:
	var w := new_world()
	var b := box(w, Vector3(0, 5, 0), Vector3(0.5, 0.5, 0.5), true)
	await ticks(2)
	var snap: PackedByteArray = Maul3D.snapshot(space_of(w))
	var y0 := b.position.y
	await ticks(30)
	check(b.position.y < y0 - 0.5, "the box fell (%f -> %f)" % [y0, b.position.y])
	Maul3D.restore(space_of(w), snap)
	check(absf(b.position.y - y0) < 1e-4, "restore moved the node back to y = %f (y = %f)" % [y0, b.position.y])


func test_worker_thread_pool_on_and_off_give_equal_hashes() -> void:
	ProjectSettings.set_setting("physics/maul3d/use_worker_thread_pool", false)
	var single := new_world()
	ProjectSettings.set_setting("physics/maul3d/use_worker_thread_pool", true)
	# Hand every stage to the pool, however small (the default keeps small ones inline).
	ProjectSettings.set_setting("physics/maul3d/worker_pool_min_items", 1)
	var pooled := new_world()
	ProjectSettings.set_setting("physics/maul3d/worker_pool_min_items", 256)
	build_big_scene(single)
	build_big_scene(pooled)
	var groups_before: int = Maul3D.worker_pool_group_count()
	var differing := 0
	for t in 120:
		await get_tree().physics_frame
		if Maul3D.space_hash(space_of(single)) != Maul3D.space_hash(space_of(pooled)):
			differing += 1
	check(differing == 0, "hashes with and without the pool differ on %d of 120 ticks" % differing)
	var groups: int = Maul3D.worker_pool_group_count() - groups_before
	check(groups > 0, "the pooled world handed stages to the WorkerThreadPool (%d group tasks)" % groups)
	print("  worker pool group tasks in 120 ticks: ", groups)


func test_a_journal_saves_a_replay_file() -> void:
	var w := new_world()
	var s := space_of(w)
	check(Maul3D.start_journal(s, 1 << 20), "the journal starts")
	build_scene(w)
	await ticks(60)
	var length: int = Maul3D.stop_journal(s)
	check(length > 0, "the journal recorded %d bytes" % length)
	var path := "user://maul3d_test.m3replay"
	check(Maul3D.save_replay(s, path), "the replay is saved")
	var f := FileAccess.open(path, FileAccess.READ)
	check(f != null and f.get_length() > length, "the replay file holds snapshot and tape")
	print("replay: ", ProjectSettings.globalize_path(path))


## Rollback-aware journals: 20 random rollbacks of 1–8 ticks while recording; each
## restores a snapshot the running journal took, which rewinds the tape, so the saved
## replay holds the history the world lived (`test/godot.sh` verifies it with
## `m3replay verify`). Snapshots the journal did not take on its current branch are
## refused with an error and change nothing.
func test_rollbacks_while_recording_save_a_replay_that_verifies() -> void:
	var w := new_world()
	var s := space_of(w)
	build_scene(w)
	await ticks(2)
	var before: PackedByteArray = Maul3D.snapshot(s)
	check(Maul3D.start_journal(s, 1 << 22), "the journal starts")
	var bodies: Array[RigidBody3D] = []
	for c in w.get_children():
		if c is RigidBody3D:
			bodies.append(c)
	var rng := RandomNumberGenerator.new()
	rng.seed = 12
	var history: Array[PackedByteArray] = []
	var steps: Array[int] = []
	var rollbacks := 0
	var refused := 0
	while rollbacks < 20:
		if history.size() >= 8 and rng.randi_range(0, 9) == 0:
			var back := rng.randi_range(1, 8)
			var to := history.size() - back
			var now: PackedByteArray = Maul3D.snapshot(s)
			check(Maul3D.restore(s, history[to]), "rollback %d of %d ticks restores" % [rollbacks, back])
			check(Maul3D.space_step_count(s) == steps[to], "rollback %d is back at step %d" % [rollbacks, steps[to]])
			var h: int = Maul3D.space_hash(s)
			# The world just left is on a branch the tape was rewound past (refused, with
			# an error in the log).
			if not Maul3D.restore(s, now):
				refused += 1
			check(Maul3D.space_hash(s) == h, "a refused restore changed the world")
			history.resize(to)
			steps.resize(to)
			rollbacks += 1
		history.append(Maul3D.snapshot(s))
		steps.append(Maul3D.space_step_count(s))
		# New input on this branch: a push on a random box.
		if rng.randi_range(0, 2) == 0:
			var b: RigidBody3D = bodies[rng.randi_range(0, bodies.size() - 1)]
			b.apply_central_impulse(Vector3(rng.randf_range(-1, 1), 2, rng.randf_range(-1, 1)))
		await get_tree().physics_frame
	check(refused == 20, "every snapshot of a rewound branch was refused (%d of 20)" % refused)
	# A snapshot from before the journal started: refused while it runs.
	var hash_now: int = Maul3D.space_hash(s)
	check(not Maul3D.restore(s, before), "a snapshot from before the journal is refused")
	check(Maul3D.space_hash(s) == hash_now, "the refused restore changed nothing")
	var length: int = Maul3D.stop_journal(s)
	check(length > 0, "the journal recorded %d bytes" % length)
	var path := "user://maul3d_rollback.m3replay"
	check(Maul3D.save_replay(s, path), "the replay is saved")
	# With the journal stopped, the old snapshot restores.
	check(Maul3D.restore(s, before), "with no journal running, the snapshot restores")
	print("replay: ", ProjectSettings.globalize_path(path))
