extends "res://test_case.gd"
# ConcavePolygonShape3D and HeightMapShape3D, each a core triangle mesh per use.


## A flat floor at y = 0 of n × n unit cells centred on the origin, two triangles a
## cell, clockwise seen from above (Godot's front-face winding).
func grid_faces(n: int) -> PackedVector3Array:
	var faces := PackedVector3Array()
	var o := n * 0.5
	for z in n:
		for x in n:
			var p00 := Vector3(x - o, 0, z - o)
			var p10 := Vector3(x + 1 - o, 0, z - o)
			var p01 := Vector3(x - o, 0, z + 1 - o)
			var p11 := Vector3(x + 1 - o, 0, z + 1 - o)
			faces.append_array([p00, p10, p01, p10, p11, p01])
	return faces


func add_static(shape: Shape3D, xf := Transform3D.IDENTITY) -> StaticBody3D:
	var body := StaticBody3D.new()
	var cs := CollisionShape3D.new()
	cs.shape = shape
	cs.transform = xf
	body.add_child(cs)
	add_child(body)
	return body


func add_concave_floor(n: int) -> StaticBody3D:
	var floor_shape := ConcavePolygonShape3D.new()
	floor_shape.set_faces(grid_faces(n))
	return add_static(floor_shape)


func add_height_map(width: int, depth: int, heights: PackedFloat32Array, xf := Transform3D.IDENTITY) -> StaticBody3D:
	var hm := HeightMapShape3D.new()
	hm.map_width = width
	hm.map_depth = depth
	hm.map_data = heights
	return add_static(hm, xf)


func add_rigid(shape: Shape3D, pos: Vector3) -> RigidBody3D:
	var body := RigidBody3D.new()
	var cs := CollisionShape3D.new()
	cs.shape = shape
	body.add_child(cs)
	body.position = pos
	add_child(body)
	return body


func unit_box() -> BoxShape3D:
	var box := BoxShape3D.new()
	box.size = Vector3(1, 1, 1)
	return box


func sphere(radius: float) -> SphereShape3D:
	var s := SphereShape3D.new()
	s.radius = radius
	return s


func ray(from: Vector3, to: Vector3) -> Dictionary:
	var q := PhysicsRayQueryParameters3D.create(from, to)
	return get_world_3d().direct_space_state.intersect_ray(q)


func test_a_box_rests_on_a_concave_floor_of_many_triangles() -> void:
	add_concave_floor(20)  # 800 triangles
	var box := add_rigid(unit_box(), Vector3(0.3, 2, 0.2))
	await ticks(120)
	check(absf(box.position.y - 0.5) < 0.01,
		"the box rests on the floor at half its size, y = 0.5 (y = %f)" % box.position.y)
	check(box.linear_velocity.length() < 0.01,
		"it is still (|v| = %f)" % box.linear_velocity.length())


func test_a_box_slides_across_a_concave_floor_without_catching_on_internal_edges() -> void:
	add_concave_floor(20)
	var box := add_rigid(unit_box(), Vector3(-8, 0.5, -0.3))
	var slick := PhysicsMaterial.new()
	slick.friction = 0.0
	box.physics_material_override = slick
	await ticks(20)
	box.linear_velocity = Vector3(6, 0, 0.7)
	var start := box.position
	var last_y := box.position.y
	var max_dy := 0.0
	for i in 60:
		await ticks(1)
		max_dy = maxf(max_dy, absf(box.position.y - last_y))
		last_y = box.position.y
	var travelled := box.position.x - start.x
	check(max_dy < 0.001,
		"no vertical jump between ticks while it slides over cell edges (max |Δy| = %f m)" % max_dy)
	check(travelled > 5.5,
		"it slides on at about 6 m/s, no edge stops it (%f m in 1 s)" % travelled)
	check(absf(box.position.y - 0.5) < 0.01, "it stays on the floor (y = %f)" % box.position.y)


func test_a_mesh_from_godot_faces_holds_a_ball_on_its_top() -> void:
	# A real mesh's faces (Godot's own winding) as a concave polygon: a 4 × 1 × 4 box
	# whose top is at y = 0.5.
	var mesh := BoxMesh.new()
	mesh.size = Vector3(4, 1, 4)
	var shape := mesh.create_trimesh_shape()
	check(shape != null and shape.get_faces().size() >= 36, "BoxMesh gives its faces")
	if shape == null:
		return
	add_static(shape)
	var ball := add_rigid(sphere(0.25), Vector3(0.4, 2, -0.6))
	await ticks(120)
	check(absf(ball.position.y - 0.75) < 0.01,
		"the ball rests on the top face, y = 0.5 + 0.25 (y = %f)" % ball.position.y)


func test_a_ray_hits_a_concave_floor_at_the_expected_point() -> void:
	add_concave_floor(20)
	await ticks(2)
	var hit := ray(Vector3(2.3, 5, 1.7), Vector3(2.3, -5, 1.7))
	check(not hit.is_empty(), "the ray hits the floor")
	if not hit.is_empty():
		check(hit.position.distance_to(Vector3(2.3, 0, 1.7)) < 1e-4,
			"at (2.3, 0, 1.7) (%s)" % str(hit.position))
		check(hit.normal.distance_to(Vector3.UP) < 1e-4, "with the normal up (%s)" % str(hit.normal))


func test_a_sphere_rests_on_a_flat_height_map_at_its_height() -> void:
	var heights := PackedFloat32Array()
	heights.resize(64)
	heights.fill(2.0)
	add_height_map(8, 8, heights)  # x and z within ±3.5, all at y = 2
	var ball := add_rigid(sphere(0.5), Vector3(0.3, 4, -0.2))
	await ticks(120)
	check(absf(ball.position.y - 2.5) < 0.01,
		"the sphere rests at 2 + its radius, y = 2.5 (y = %f)" % ball.position.y)
	check(ball.linear_velocity.length() < 0.01,
		"it is still (|v| = %f)" % ball.linear_velocity.length())


## A slope rising 0.25 per sample along x, 9 × 9 samples, scaled ×2 by its shape
## transform: y = 0.25·x + 2 over x, z within ±8.
func add_scaled_slope() -> void:
	var heights := PackedFloat32Array()
	for z in 9:
		for x in 9:
			heights.append(0.25 * x)
	add_height_map(9, 9, heights, Transform3D(Basis.from_scale(Vector3(2, 2, 2)), Vector3.ZERO))


func test_a_sphere_rests_on_a_scaled_height_map_slope_one_radius_off_it() -> void:
	add_scaled_slope()
	var ball := add_rigid(sphere(0.5), Vector3(1, 4, 0.5))
	ball.lock_rotation = true  # it would roll; friction 1 holds it on a 14° slope
	await ticks(150)
	var p := ball.position
	# Distance to the plane y = 0.25 x + 2 is (y − 0.25 x − 2)/√(1 + 0.25²).
	var d := (p.y - 0.25 * p.x - 2.0) / sqrt(1.0625)
	check(absf(d - 0.5) < 0.01, "the sphere's centre is one radius off the slope (%f)" % d)
	check(ball.linear_velocity.length() < 0.01,
		"friction holds it (|v| = %f)" % ball.linear_velocity.length())


func test_a_ray_hits_a_scaled_height_map_slope_at_the_expected_point() -> void:
	add_scaled_slope()
	await ticks(2)
	var hit := ray(Vector3(1, 10, 3.3), Vector3(1, -10, 3.3))
	check(not hit.is_empty(), "the ray hits the slope")
	if not hit.is_empty():
		check(hit.position.distance_to(Vector3(1, 2.25, 3.3)) < 1e-4,
			"at y = 0.25·1 + 2 (%s)" % str(hit.position))
		var n := Vector3(-0.25, 1, 0).normalized()
		check(hit.normal.distance_to(n) < 1e-4, "with the slope's normal (%s)" % str(hit.normal))


func test_a_height_map_cell_splits_along_godots_diagonal() -> void:
	# One cell, samples (0,0), (1,0), (0,1) at 0 and (1,1) at 1, over local x, z within
	# ±0.5. Godot splits it from (1,0) to (0,1): the half at (0,0) is flat, the other
	# rises as x + z − 1 (in sample coordinates).
	add_height_map(2, 2, PackedFloat32Array([0, 0, 0, 1]))
	await ticks(2)
	for s: Vector2 in [Vector2(0.3, 0.1), Vector2(0.7, 0.6)]:
		var expected := maxf(s.x + s.y - 1.0, 0.0)
		var x := s.x - 0.5
		var z := s.y - 0.5
		var hit := ray(Vector3(x, 5, z), Vector3(x, -5, z))
		check(not hit.is_empty() and absf(hit.position.y - expected) < 1e-4,
			"at samples %s the surface is at y = %f (%s)" % [str(s), expected, str(hit.get("position"))])


func test_a_nan_height_is_a_hole_a_small_ball_falls_through() -> void:
	var heights := PackedFloat32Array()
	heights.resize(81)
	heights.fill(0.0)
	heights[4 * 9 + 4] = NAN  # the centre sample: its six triangles are left out
	add_height_map(9, 9, heights)
	var through := add_rigid(sphere(0.2), Vector3(0, 2, 0))
	var beside := add_rigid(sphere(0.2), Vector3(2.5, 2, 2.5))
	await ticks(90)
	check(through.position.y < -1.0, "the ball over the hole falls through (y = %f)" % through.position.y)
	check(absf(beside.position.y - 0.2) < 0.01,
		"the ball beside it rests on the height map (y = %f)" % beside.position.y)
	var hit := ray(Vector3(0.1, 5, 0.1), Vector3(0.1, -5, 0.1))
	check(hit.is_empty() or hit.collider != null and hit.collider is RigidBody3D,
		"a ray down the hole meets no height map (%s)" % str(hit))


func test_concave_shapes_past_mesh_capacity_grow_the_space_and_freed_meshes_come_back() -> void:
	var before = ProjectSettings.get_setting("physics/maul3d/mesh_capacity")
	ProjectSettings.set_setting("physics/maul3d/mesh_capacity", 2)
	var vp := SubViewport.new()
	vp.world_3d = World3D.new()
	var sp := vp.world_3d.space  # made now, with the setting above
	ProjectSettings.set_setting("physics/maul3d/mesh_capacity", before)
	add_child(vp)
	var shape := ConcavePolygonShape3D.new()
	shape.set_faces(grid_faces(4))
	var floors: Array[StaticBody3D] = []
	for i in 3:
		var f := StaticBody3D.new()
		var cs := CollisionShape3D.new()
		cs.shape = shape
		f.add_child(cs)
		f.position = Vector3(i * 10.0, 0, 0)
		vp.add_child(f)
		floors.append(f)
	await ticks(2)
	var state := PhysicsServer3D.space_get_direct_state(sp)
	var down := func(x: float) -> Dictionary:
		return state.intersect_ray(PhysicsRayQueryParameters3D.create(Vector3(x, 5, 0.5), Vector3(x, -5, 0.5)))
	# Capacity 2 is an initial size: the space grows and the third floor is solid too.
	check(not down.call(0.0).is_empty() and not down.call(10.0).is_empty(), "the first two floors are solid")
	check(not down.call(20.0).is_empty(), "the third floor, past the initial mesh_capacity, is solid")
	floors[0].free()
	floors[2].free()
	await ticks(1)
	var again := StaticBody3D.new()
	var cs2 := CollisionShape3D.new()
	cs2.shape = shape
	again.add_child(cs2)
	again.position = Vector3(30, 0, 0)
	vp.add_child(again)
	await ticks(2)
	check(not down.call(30.0).is_empty(), "a freed floor's mesh slot serves a new floor")
	vp.queue_free()


func test_a_concave_shape_on_a_rigid_body_collides_with_nothing() -> void:
	# The core takes meshes on static and kinematic bodies only (one warning says so).
	add_concave_floor(4)
	var shape := ConcavePolygonShape3D.new()
	shape.set_faces(grid_faces(2))
	var body := add_rigid(shape, Vector3(0, 2, 0))
	await ticks(60)
	check(body.position.y < -1.0, "the rigid body falls through the floor (y = %f)" % body.position.y)


func test_a_restore_gives_back_the_meshes_of_bodies_freed_since_the_snapshot() -> void:
	var before = ProjectSettings.get_setting("physics/maul3d/mesh_capacity")
	ProjectSettings.set_setting("physics/maul3d/mesh_capacity", 1)
	var vp := SubViewport.new()
	vp.world_3d = World3D.new()
	var sp := vp.world_3d.space
	ProjectSettings.set_setting("physics/maul3d/mesh_capacity", before)
	add_child(vp)
	var shape := ConcavePolygonShape3D.new()
	shape.set_faces(grid_faces(4))
	var make_floor := func(x: float) -> StaticBody3D:
		var f := StaticBody3D.new()
		var cs := CollisionShape3D.new()
		cs.shape = shape
		f.add_child(cs)
		f.position = Vector3(x, 0, 0)
		vp.add_child(f)
		return f
	var first: StaticBody3D = make_floor.call(0.0)
	await ticks(2)
	var snap: PackedByteArray = Maul3D.snapshot(sp)
	first.free()
	await ticks(1)
	# The restored world holds the first floor's mesh again, but no node owns it: the
	# server removes the body and the mesh, so the one slot serves a new floor.
	check(Maul3D.restore(sp, snap), "the snapshot restores")
	make_floor.call(10.0)
	await ticks(2)
	var state := PhysicsServer3D.space_get_direct_state(sp)
	var hit := state.intersect_ray(PhysicsRayQueryParameters3D.create(Vector3(10, 5, 0.5), Vector3(10, -5, 0.5)))
	check(not hit.is_empty(), "the new floor is solid within mesh_capacity 1")
	vp.queue_free()
