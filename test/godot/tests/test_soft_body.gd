extends "res://test_case.gd"
# SoftBody3D on Maul3D (godot-ext/src/soft.rs): cloth from a PlaneMesh and pressure balls
# from a SphereMesh, welded into particles; their pins, points, impulses, parameters,
# rendering through the server's handler, collisions with rigid bodies both ways, and
# their place in the world's hash, snapshots, restores and journals.

const S := preload("res://soft_bodies.gd")
const RenderProbe := preload("res://soft_render_probe.gd")


## A world of its own (its own Maul3D space, made now with the current settings).
func new_world() -> SubViewport:
	var vp := SubViewport.new()
	vp.world_3d = World3D.new()
	var _space := vp.world_3d.space
	add_child(vp)
	return vp


func floor_box(parent: Node, half := Vector3(10, 0.5, 10)) -> StaticBody3D:
	var body := StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var b := BoxShape3D.new()
	b.size = half * 2.0
	shape.shape = b
	body.add_child(shape)
	body.position = Vector3(0, -half.y, 0)
	parent.add_child(body)
	return body


func rigid_box(parent: Node, pos: Vector3, half: Vector3, mass: float) -> RigidBody3D:
	var body := RigidBody3D.new()
	var shape := CollisionShape3D.new()
	var b := BoxShape3D.new()
	b.size = half * 2.0
	shape.shape = b
	body.add_child(shape)
	body.position = pos
	body.mass = mass
	parent.add_child(body)
	return body


## A cloth pinned at the two corners of its far edge (z = −size/2).
func pinned_cloth(parent: Node, size: float, cells: int, at: Vector3) -> SoftBody3D:
	var sb := S.cloth(size, cells, at)
	sb.total_mass = 1.0
	sb.damping_coefficient = 2.0
	for x in [-0.5, 0.5]:
		sb.set_point_pinned(S.vertex_near(sb, Vector3(x * size, 0, -0.5 * size)), true)
	parent.add_child(sb)
	return sb


## A pressure ball (radius 0.5, 16 × 8, pressure 20, stiffness 0.9, 1 kg).
func pressure_ball(parent: Node, at: Vector3) -> SoftBody3D:
	var sb := S.ball(0.5, 16, 8, at)
	sb.pressure_coefficient = 20.0
	sb.linear_stiffness = 0.9
	sb.total_mass = 1.0
	parent.add_child(sb)
	return sb


## A cloth, a pressure ball and a rigid box in one world (the determinism tests' scene).
func build_scene(parent: Node) -> void:
	floor_box(parent)
	pinned_cloth(parent, 2.0, 8, Vector3(0, 3, 0))
	pressure_ball(parent, Vector3(3, 1.5, 0))
	rigid_box(parent, Vector3(-3, 0.5, 0), Vector3(0.3, 0.3, 0.3), 1.0)
	var drop := S.cloth(0.8, 6, Vector3(-3, 1.5, 0))
	parent.add_child(drop)


func test_a_soft_cloth_pinned_at_two_corners_drapes_and_comes_to_rest() -> void:
	var sb := pinned_cloth(self, 2.0, 12, Vector3(0, 3, 0))
	var pins := [S.vertex_near(sb, Vector3(-1, 0, -1)), S.vertex_near(sb, Vector3(1, 0, -1))]
	var free_corner := S.vertex_near(sb, Vector3(1, 0, 1))
	var free_mid := S.vertex_near(sb, Vector3(0, 0, 1))
	await ticks(1)
	var start := S.points(sb)
	check(absf(start[pins[0]].y - 3.0) < 1e-5 and absf(S.lowest(start) - 3.0) < 0.01, "the cloth starts flat at the node's height (lowest %.5f)" % S.lowest(start))
	await ticks(480)
	var a := S.points(sb)
	await ticks(1)
	var b := S.points(sb)
	for p in pins:
		check(b[p].distance_to(start[p]) < 1e-4, "pinned point %d stays where it was (%s -> %s)" % [p, start[p], b[p]])
		check(sb.is_point_pinned(p), "point %d reads as pinned" % p)
	check(not sb.is_point_pinned(free_mid), "a free point reads as not pinned")
	# It hangs from its pinned edge: the free edge below it, under the pins' line.
	check(b[free_mid].y < 1.2 and b[free_mid].y > 0.7, "the free edge's middle hangs about 2 m below the pins (y = %.3f)" % b[free_mid].y)
	check(absf(b[free_mid].z + 1.0) < 0.2, "and under the pinned edge (z = %.3f)" % b[free_mid].z)
	check(b[free_corner].distance_to(b[pins[1]]) < 2.0 * 1.1 + 1e-3, "a free corner is within the long-range limit of its pin (%.3f m)" % b[free_corner].distance_to(b[pins[1]]))
	var move := S.largest_move(a, b)
	check(move < 1e-3, "the cloth has come to rest after 8 s (largest move in a tick %.5f m)" % move)
	print("  cloth: lowest %.3f, free edge middle (y %.3f, z %.3f), last tick's largest move %.6f m" % [S.lowest(b), b[free_mid].y, b[free_mid].z, move])


func test_a_soft_pressure_ball_bounces_on_a_floor_and_keeps_its_volume() -> void:
	floor_box(self)
	var sb := pressure_ball(self, Vector3(0, 2, 0))
	var rest := S.rest_volume(sb)
	var smallest := INF
	var largest := 0.0
	var deepest := INF
	var touched := -1
	var bounce := -INF
	# 2.5 s: the drop (about 33 ticks), the landing and the bounces after it.
	for t in 150:
		await ticks(1)
		var ps := S.points(sb)
		var y := S.lowest(ps)
		var v := S.volume(sb, ps)
		smallest = minf(smallest, v)
		largest = maxf(largest, v)
		deepest = minf(deepest, y)
		if touched < 0 and y < 0.05:
			touched = t
		if touched >= 0 and t > touched + 5:
			bounce = maxf(bounce, y)
	check(touched >= 30 and touched <= 36, "the ball lands after its 1.5 m fall (tick %d; free fall: 33)" % touched)
	check(deepest > -0.02, "no point passes into the floor (lowest ever %.4f)" % deepest)
	check(bounce > 0.1, "the ball bounces (its lowest point rises to %.3f m after landing)" % bounce)
	check(smallest > 0.85 * rest, "its volume never falls below 85 %% of the mesh's (%.1f %%)" % (100.0 * smallest / rest))
	check(largest < 1.15 * rest, "nor grows past 115 %% (%.1f %%)" % (100.0 * largest / rest))
	var now := S.volume(sb, S.points(sb)) / rest
	check(absf(now - 1.0) < 0.1, "after 2.5 s it holds %.1f %% of the mesh's volume" % (100.0 * now))
	print("  ball: landed tick %d, bounced to %.3f m, volume %.1f %% .. %.1f %%, now %.1f %%" % [touched, bounce, 100.0 * smallest / rest, 100.0 * largest / rest, 100.0 * now])


func test_a_soft_body_resting_on_a_rigid_box_presses_it_down() -> void:
	# Two heavy boxes floating without gravity; a cloth falls onto the first and rests on
	# it. What the cloth's weight does to the box is the two-way coupling: the pair's
	# momentum is the cloth's weight over the time (nothing else acts on either).
	var w := new_world()
	var box := rigid_box(w, Vector3(0, 1, 0), Vector3(0.6, 0.1, 0.6), 10.0)
	var bare := rigid_box(w, Vector3(5, 1, 0), Vector3(0.6, 0.1, 0.6), 10.0)
	for b in [box, bare]:
		b.gravity_scale = 0.0
		b.can_sleep = false
	var sb := S.cloth(0.8, 8, Vector3(0, 1.3, 0))
	sb.total_mass = 1.0
	w.add_child(sb)
	var s := w.world_3d.space
	var t0: int = Maul3D.space_step_count(s)
	await ticks(90)
	var steps: int = Maul3D.space_step_count(s) - t0
	# Velocities over 6 ticks (the contact lags the box by a step, so the cloth's
	# velocity swings about the box's from tick to tick).
	var a := S.points(sb)
	var box_y0 := box.global_position.y
	await ticks(6)
	var ps := S.points(sb)
	var cloth_v := (S.centre(ps) - S.centre(a)) * 10.0
	var box_v := (box.global_position.y - box_y0) * 10.0
	steps += 6
	var top := box.global_position.y + 0.1
	check(bare.global_position.y == 1.0 and bare.linear_velocity == Vector3.ZERO, "the box under nothing stays put")
	check(box.linear_velocity.y < -0.1, "the box under the cloth moves down (v = %.3f m/s)" % box.linear_velocity.y)
	check(box.global_position.y < 0.95, "and has gone down (y = %.3f)" % box.global_position.y)
	check(S.lowest(ps) > top - 0.03, "the cloth rests on the box's top (cloth lowest %.3f, top %.3f)" % [S.lowest(ps), top])
	check(absf(cloth_v.y - box_v) < 0.1, "and moves down with it over 6 ticks (%.3f vs %.3f m/s)" % [cloth_v.y, box_v])
	var weight := -1.0 * 9.8 * steps / 60.0
	var momentum := 10.0 * box.linear_velocity.y + 1.0 * cloth_v.y
	check(absf(momentum - weight) < 0.15 * absf(weight), "box and cloth carry the cloth's weight over the time (%.2f vs %.2f N·s)" % [momentum, weight])
	print("  box under cloth: v %.3f m/s, y %.3f; momentum %.2f vs weight × time %.2f N·s" % [box.linear_velocity.y, box.global_position.y, momentum, weight])


func test_the_same_soft_scene_twice_gives_the_same_hash_every_tick() -> void:
	var a := new_world()
	var b := new_world()
	build_scene(a)
	build_scene(b)
	var differing := 0
	var distinct := {}
	for t in 180:
		await get_tree().physics_frame
		var ha: int = Maul3D.space_hash(a.world_3d.space)
		var hb: int = Maul3D.space_hash(b.world_3d.space)
		if ha != hb:
			differing += 1
		distinct[ha] = true
	check(differing == 0, "the two worlds' hashes differ on %d of 180 ticks" % differing)
	check(distinct.size() >= 175, "the hash follows the soft bodies as they move (%d distinct)" % distinct.size())


func test_a_soft_snapshot_restored_reproduces_the_ticks_after_it() -> void:
	var w := new_world()
	build_scene(w)
	var s := w.world_3d.space
	await ticks(40)
	var cloth: SoftBody3D = null
	for c in w.get_children():
		if c is SoftBody3D:
			cloth = c
			break
	var snap: PackedByteArray = Maul3D.snapshot(s)
	var at: int = Maul3D.space_step_count(s)
	var points_then := S.points(cloth)
	var hashes := {}
	for t in 60:
		await get_tree().physics_frame
		hashes[Maul3D.space_step_count(s)] = Maul3D.space_hash(s)
	check(S.largest_move(points_then, S.points(cloth)) > 0.01, "the cloth moved on after the snapshot")
	check(Maul3D.restore(s, snap), "the snapshot restores")
	check(S.largest_move(points_then, S.points(cloth)) == 0.0, "the cloth's points are back where they were")
	var compared := 0
	var mismatched := 0
	while Maul3D.space_step_count(s) < at + 60:
		await get_tree().physics_frame
		var n: int = Maul3D.space_step_count(s)
		if hashes.has(n):
			compared += 1
			if hashes[n] != Maul3D.space_hash(s):
				mismatched += 1
	check(compared >= 55, "the replayed ticks were compared (%d)" % compared)
	check(mismatched == 0, "%d of %d replayed ticks hash differently" % [mismatched, compared])


func test_a_restore_brings_soft_body_records_in_line() -> void:
	var w := new_world()
	var s := w.world_3d.space
	var ground := floor_box(w)
	var kept := pinned_cloth(w, 1.0, 4, Vector3(0, 2, 0))
	var freed := S.cloth(1.0, 4, Vector3(3, 2, 0))
	w.add_child(freed)
	await ticks(3)
	var snap: PackedByteArray = Maul3D.snapshot(s)
	var at: int = Maul3D.space_step_count(s)
	var hash_then: int = Maul3D.space_hash(s)
	var pin := S.vertex_near(kept, Vector3(0.5, 0, -0.5))
	# After the snapshot: one cloth made, parameters, a pin and an exception changed.
	var made := S.cloth(1.0, 4, Vector3(-3, 2, 0))
	w.add_child(made)
	kept.simulation_precision = 9
	kept.pressure_coefficient = 3.0
	kept.collision_layer = 6
	kept.set_point_pinned(pin, false)
	kept.add_collision_exception_with(ground)
	await ticks(3)
	check(not PhysicsServer3D.soft_body_is_point_pinned(kept.get_physics_rid(), pin), "the corner was unpinned")
	check(Maul3D.restore(s, snap), "the snapshot restores")
	check(Maul3D.space_step_count(s) == at, "the world is back at the snapshot's step")
	check(Maul3D.space_hash(s) == hash_then, "and is the snapshot's world (the cloth made since has no soft body)")
	check(kept.simulation_precision == 5, "the kept cloth's precision reads back (%d)" % kept.simulation_precision)
	check(kept.pressure_coefficient == 0.0, "its pressure reads back (%f)" % kept.pressure_coefficient)
	check(PhysicsServer3D.soft_body_get_collision_layer(kept.get_physics_rid()) == 1, "its layer reads back")
	check(PhysicsServer3D.soft_body_is_point_pinned(kept.get_physics_rid(), pin), "its pin reads back")
	check(kept.get_collision_exceptions().is_empty(), "its collision exceptions read back (none then)")
	var before := S.points(made)
	await ticks(5)
	check(S.largest_move(before, S.points(made)) == 0.0, "the cloth made after the snapshot is inert")
	# A soft body whose RID was freed since the snapshot comes back with it and is removed.
	freed.free()
	check(Maul3D.restore(s, snap), "the snapshot restores again")
	check(Maul3D.space_hash(s) != hash_then, "the freed cloth's soft body was removed from the restored world")
	var h: int = Maul3D.space_hash(s)
	await ticks(1)
	check(Maul3D.space_hash(s) != h, "the world steps on")


func test_soft_rendering_writes_each_vertex_and_normal_and_the_bounds() -> void:
	var sb := S.ball(0.5, 12, 6, Vector3(0, 3, 0))
	sb.pressure_coefficient = 10.0
	sb.total_mass = 1.0
	add_child(sb)
	var plane := S.cloth(2.0, 4, Vector3(4, 3, 0))
	add_child(plane)
	await ticks(2)
	for body in [sb, plane]:
		var probe := RenderProbe.new()
		PhysicsServer3D.soft_body_update_rendering_server(body.get_physics_rid(), probe)
		var n := S.mesh_vertices(body).size()
		check(probe.vertices.size() == n and probe.normals.size() == n, "every render vertex got a position and a normal (%d, %d of %d)" % [probe.vertices.size(), probe.normals.size(), n])
		check(probe.aabb_calls == 1, "the bounds were set once")
		var ps := S.points(body)
		var c := S.centre(ps)
		var worst := 0.0
		var bad_normals := 0
		for i in n:
			worst = maxf(worst, (probe.vertices[i] as Vector3).distance_to(ps[i]))
			var nrm: Vector3 = probe.normals[i]
			if absf(nrm.length() - 1.0) > 1e-4:
				bad_normals += 1
			elif body == sb and nrm.dot(ps[i] - c) <= 0.0:
				bad_normals += 1
			elif body == plane and nrm.dot(Vector3.UP) < 0.99:
				bad_normals += 1
			if not probe.aabb.grow(1e-4).has_point(ps[i]):
				worst = INF
		check(worst < 1e-5, "positions are the points' global positions, inside the bounds (worst %f)" % worst)
		check(bad_normals == 0, "%d normals are not unit vectors facing out (the ball) or up (the flat cloth)" % bad_normals)
		var b := PhysicsServer3D.soft_body_get_bounds(body.get_physics_rid())
		check(b == probe.aabb, "the bounds are soft_body_get_bounds (%s vs %s)" % [b, probe.aabb])
		probe.free()
	# The node's own draw (SoftBody3D's handler into its mesh) runs, then the node goes
	# top-level at the identity, which moves nothing.
	var before := S.points(sb)
	RenderingServer.force_draw()
	await ticks(1)
	check(sb.top_level and sb.transform == Transform3D.IDENTITY, "the drawn node is top-level at the identity")
	check(S.largest_move(before, S.points(sb)) < 0.2, "the identity transform did not teleport the ball")


func test_a_soft_sphere_mesh_welds_its_seam_and_poles() -> void:
	var sb := S.ball(0.5, 12, 6, Vector3(0, 3, 0))
	sb.pressure_coefficient = 10.0
	add_child(sb)
	var vs := S.mesh_vertices(sb)
	await ticks(20)
	var ps := S.points(sb)
	# Render vertices at one place (within the weld tolerance) are one particle: they
	# still share a position after falling and deforming.
	var groups := 0
	var apart := 0
	for i in vs.size():
		for j in range(i + 1, vs.size()):
			if vs[i].distance_to(vs[j]) < 1e-5:
				groups += 1
				if ps[i] != ps[j]:
					apart += 1
	# The seam (7 + 1 rows) and the poles' rings (13 vertices each).
	check(groups > 2 * 78, "the mesh repeats vertices at its seam and poles (%d pairs)" % groups)
	check(apart == 0, "%d repeated vertices moved apart: not welded" % apart)
	check(PhysicsServer3D.soft_body_is_point_pinned(sb.get_physics_rid(), 0) == false, "nothing is pinned")


func test_soft_body_parameters_reach_the_server_and_read_back() -> void:
	var sb := S.cloth(1.0, 4, Vector3(0, 3, 0))
	add_child(sb)
	var rid := sb.get_physics_rid()
	check(PhysicsServer3D.soft_body_get_space(rid) == get_world_3d().space, "the soft body is in the node's space")
	check(sb.total_mass == 1.0 and sb.simulation_precision == 5 and is_equal_approx(sb.linear_stiffness, 0.5), "Godot Physics' defaults (mass %f, precision %d, stiffness %f)" % [sb.total_mass, sb.simulation_precision, sb.linear_stiffness])
	sb.simulation_precision = 200
	check(sb.simulation_precision == 200, "the precision reads back as given")
	sb.linear_stiffness = 3.0
	check(sb.linear_stiffness == 1.0, "the stiffness is clamped to [0, 1] (%f)" % sb.linear_stiffness)
	sb.total_mass = 2.5
	sb.pressure_coefficient = 7.0
	sb.damping_coefficient = 0.3
	sb.drag_coefficient = 0.2
	check(sb.total_mass == 2.5 and sb.pressure_coefficient == 7.0, "mass and pressure read back")
	check(is_equal_approx(sb.damping_coefficient, 0.3) and is_equal_approx(sb.drag_coefficient, 0.2), "damping and drag read back")
	sb.collision_layer = 4
	sb.collision_mask = 9
	check(PhysicsServer3D.soft_body_get_collision_layer(rid) == 4 and PhysicsServer3D.soft_body_get_collision_mask(rid) == 9, "layer and mask reach the server")
	var body := rigid_box(self, Vector3(5, 0, 0), Vector3(0.2, 0.2, 0.2), 1.0)
	sb.add_collision_exception_with(body)
	check(sb.get_collision_exceptions().size() == 1, "a collision exception is kept")
	sb.remove_collision_exception_with(body)
	check(sb.get_collision_exceptions().is_empty(), "and removed")
	check(PhysicsServer3D.body_get_object_instance_id(rid) == sb.get_instance_id(), "the soft body knows its node")
	var h: int = Maul3D.space_hash(get_world_3d().space)
	sb.total_mass = NAN
	check(sb.total_mass == 2.5, "a NaN mass is refused, the old one kept")
	check(Maul3D.space_hash(get_world_3d().space) == h, "and the world is unchanged")


## A static box of half extents `half` centred at `pos`.
func static_box(parent: Node, pos: Vector3, half: Vector3) -> StaticBody3D:
	var body := StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var b := BoxShape3D.new()
	b.size = half * 2.0
	shape.shape = b
	body.add_child(shape)
	body.position = pos
	parent.add_child(body)
	return body


## The highest point's height.
func highest(ps: PackedVector3Array) -> float:
	var h := -INF
	for p in ps:
		h = maxf(h, p.y)
	return h


func test_a_soft_cloth_falls_through_a_static_box_it_excepts_and_rests_on_one_it_does_not() -> void:
	# Three static boxes whose tops are at y = 1 over a floor whose top is at 0, a cloth
	# above each: the first excepts its box before either is in the tree (the box's body
	# is made after the cloth's soft body), the second once both are, the third not.
	var w := new_world()
	floor_box(w)
	var half := Vector3(0.7, 0.5, 0.7)
	var late := S.cloth(1.0, 8, Vector3(-3, 1.4, 0))
	var now := S.cloth(1.0, 8, Vector3(0, 1.4, 0))
	var resting := S.cloth(1.0, 8, Vector3(3, 1.4, 0))
	var box_late := StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var bs := BoxShape3D.new()
	bs.size = half * 2.0
	shape.shape = bs
	box_late.add_child(shape)
	box_late.position = Vector3(-3, 0.5, 0)
	late.add_collision_exception_with(box_late)
	for sb in [late, now, resting]:
		w.add_child(sb)
	w.add_child(box_late)
	var box_now := static_box(w, Vector3(0, 0.5, 0), half)
	var box_resting := static_box(w, Vector3(3, 0.5, 0), half)
	now.add_collision_exception_with(box_now)
	# The second box's body made again (out of its space and back): still excepted.
	PhysicsServer3D.body_set_space(box_now.get_rid(), RID())
	PhysicsServer3D.body_set_space(box_now.get_rid(), w.world_3d.space)
	var listed := late.get_collision_exceptions()
	check(listed.size() == 1 and listed[0] == box_late, "the server lists the exception (%s)" % [listed])
	await ticks(150)
	var pl := S.points(late)
	var pn := S.points(now)
	var pr := S.points(resting)
	print("  exceptions: cloth through its box (set before the box was made) y in [%.3f, %.3f], (set after, the box remade) [%.3f, %.3f]; the other on its box [%.3f, %.3f]" % [S.lowest(pl), highest(pl), S.lowest(pn), highest(pn), S.lowest(pr), highest(pr)])
	check(highest(pl) < 0.1 and S.lowest(pl) > -0.01, "the cloth excepting a box made after it fell through it onto the floor (y in [%.3f, %.3f])" % [S.lowest(pl), highest(pl)])
	check(highest(pn) < 0.1 and S.lowest(pn) > -0.01, "the cloth excepting a box already made (then made again) fell through it onto the floor (y in [%.3f, %.3f])" % [S.lowest(pn), highest(pn)])
	check(S.lowest(pr) > 0.97 and highest(pr) < 1.1, "the cloth without an exception rests on its box (y in [%.3f, %.3f])" % [S.lowest(pr), highest(pr)])
	var h: int = Maul3D.space_hash(w.world_3d.space)
	resting.add_collision_exception_with(box_resting)
	check(Maul3D.space_hash(w.world_3d.space) != h, "an exception is part of the world's state")
	resting.remove_collision_exception_with(box_resting)
	check(Maul3D.space_hash(w.world_3d.space) == h, "and removing it gives the state back")


func test_soft_points_move_pin_and_take_impulses() -> void:
	var sb := S.cloth(1.0, 4, Vector3(0, 5, 0))
	sb.total_mass = 1.0
	add_child(sb)
	await ticks(1)
	var corner := S.vertex_near(sb, Vector3(0.5, 0, 0.5))
	var other := S.vertex_near(sb, Vector3(-0.5, 0, -0.5))
	# On the cloth falling freely, before the pin yanks it about.
	var y0 := sb.get_point_transform(other).y
	sb.apply_impulse(other, Vector3(0, 1, 0))
	await ticks(1)
	check(sb.get_point_transform(other).y > y0, "an upward impulse on a point lifts it (%f to %f)" % [y0, sb.get_point_transform(other).y])
	sb.set_point_pinned(corner, true)
	check(sb.is_point_pinned(corner), "the corner is pinned")
	PhysicsServer3D.soft_body_move_point(sb.get_physics_rid(), corner, Vector3(2, 6, 0))
	await ticks(2)
	check(sb.get_point_transform(corner).is_equal_approx(Vector3(2, 6, 0)), "a pinned point moved by move_point stays there (%s)" % sb.get_point_transform(corner))
	var c0 := S.centre(S.points(sb))
	sb.set_point_pinned(corner, false)
	check(not sb.is_point_pinned(corner), "the corner is free")
	sb.apply_central_impulse(Vector3(30, 0, 0))
	await ticks(5)
	check(S.centre(S.points(sb)).x > c0.x + 0.5, "a central impulse carries the cloth sideways")
	PhysicsServer3D.soft_body_remove_all_pinned_points(sb.get_physics_rid())
	var v: Vector3 = PhysicsServer3D.soft_body_get_state(sb.get_physics_rid(), PhysicsServer3D.BODY_STATE_LINEAR_VELOCITY)
	check(v.x > 1.0, "the mean particle velocity reads as the body's (%s)" % v)
	PhysicsServer3D.soft_body_set_state(sb.get_physics_rid(), PhysicsServer3D.BODY_STATE_LINEAR_VELOCITY, Vector3.ZERO)
	v = PhysicsServer3D.soft_body_get_state(sb.get_physics_rid(), PhysicsServer3D.BODY_STATE_LINEAR_VELOCITY)
	check(v == Vector3.ZERO, "setting the velocity stops every particle (%s)" % v)
	check(PhysicsServer3D.soft_body_get_state(sb.get_physics_rid(), PhysicsServer3D.BODY_STATE_SLEEPING) == false, "soft bodies never sleep")


func test_a_full_soft_particle_pool_leaves_the_soft_body_inert() -> void:
	ProjectSettings.set_setting("physics/maul3d/soft_particle_capacity", 40)
	var w := new_world()
	ProjectSettings.set_setting("physics/maul3d/soft_particle_capacity", 4096)
	var fits := S.cloth(1.0, 4, Vector3(0, 3, 0))
	w.add_child(fits)
	var too_big := S.cloth(1.0, 8, Vector3(3, 3, 0))
	w.add_child(too_big)
	await ticks(10)
	check(fits.get_point_transform(0).y < 3.0, "a cloth of 25 particles fits the 40 and falls")
	check(too_big.get_point_transform(0).y == 3.0, "one of 81 more is refused (an error names physics/maul3d/soft_particle_capacity) and stays at its rest place (y = %f)" % too_big.get_point_transform(0).y)
	check(PhysicsServer3D.soft_body_get_bounds(too_big.get_physics_rid()) == AABB(), "it has no bounds")


func test_a_journal_of_soft_bodies_saves_a_replay() -> void:
	var w := new_world()
	var s := w.world_3d.space
	check(Maul3D.start_journal(s, 1 << 22), "the journal starts")
	build_scene(w)
	await ticks(30)
	var cloth: SoftBody3D = null
	for c in w.get_children():
		if c is SoftBody3D:
			cloth = c
			break
	cloth.apply_central_impulse(Vector3(0.5, 0, 0))
	cloth.set_point_pinned(0, true)
	cloth.linear_stiffness = 0.7
	await ticks(30)
	var length: int = Maul3D.stop_journal(s)
	check(length > 0, "the journal recorded %d bytes" % length)
	var path := "user://maul3d_soft.m3replay"
	check(Maul3D.save_replay(s, path), "the replay is saved")
	print("replay: ", ProjectSettings.globalize_path(path))


func test_a_soft_body_takes_its_node_transform_and_moves_with_it() -> void:
	# Turned a quarter about x and scaled by 2: the cloth stands upright, unscaled (scale
	# is dropped, as Jolt drops it).
	var sb := S.cloth(1.0, 4, Vector3(0, 3, 0))
	sb.basis = Basis(Vector3.RIGHT, PI / 2).scaled(Vector3(2, 2, 2))
	var a := S.vertex_near(sb, Vector3(-0.5, 0, -0.5))
	var b := S.vertex_near(sb, Vector3(0.5, 0, -0.5))
	sb.set_point_pinned(a, true)
	sb.set_point_pinned(b, true)
	add_child(sb)
	await ticks(1)
	var turn := Transform3D(Basis(Vector3.RIGHT, PI / 2), Vector3(0, 3, 0))
	for p in [a, b]:
		var want := turn * S.mesh_vertices(sb)[p]
		check(sb.get_point_transform(p).distance_to(want) < 1e-5, "pinned point %d is at the node's transform without its scale (%s, want %s)" % [p, sb.get_point_transform(p), want])
	check(sb.top_level and sb.transform == Transform3D.IDENTITY, "the node is top-level at the identity after it")
	await ticks(20)
	# Moving the node later moves the particles by the move, from where they are.
	var before := S.points(sb)
	sb.position = Vector3(5, 0, 0)
	await ticks(1)
	var after := S.points(sb)
	for p in [a, b]:
		check(after[p].distance_to(before[p] + Vector3(5, 0, 0)) < 1e-5, "pinned point %d moved by the node's move (%s -> %s)" % [p, before[p], after[p]])
	check(absf(S.centre(after).x - S.centre(before).x - 5.0) < 0.05, "the whole cloth moved 5 m along x (%.3f)" % (S.centre(after).x - S.centre(before).x))
	check(sb.transform == Transform3D.IDENTITY, "and the node is back at the identity")
