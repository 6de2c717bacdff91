extends "res://test_case.gd"
# Scale on a body node (issue 14 item 1): Godot bakes the body's scale (and the shape
# node's) into every shape, so a StaticBody3D, AnimatableBody3D, RigidBody3D or Area3D
# scaled ×10 collides at ten times its shapes' size.


func shape_node(shape: Shape3D, xf := Transform3D.IDENTITY) -> CollisionShape3D:
	var s := CollisionShape3D.new()
	s.shape = shape
	s.transform = xf
	return s


func thin_box() -> BoxShape3D:
	var box := BoxShape3D.new()
	box.size = Vector3(2, 0.1, 2)
	return box


func add_body(body: CollisionObject3D, shape: Shape3D, xf: Transform3D,
		shape_xf := Transform3D.IDENTITY) -> CollisionObject3D:
	body.add_child(shape_node(shape, shape_xf))
	body.transform = xf
	add_child(body)
	return body


func drop_box(at: Vector3) -> RigidBody3D:
	var b := RigidBody3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(1, 1, 1)
	return add_body(b, box, Transform3D(Basis.IDENTITY, at))


func ten() -> Basis:
	return Basis.IDENTITY.scaled(Vector3(10, 10, 10))


func test_a_box_rests_on_a_static_body_scaled_ten_times() -> void:
	add_body(StaticBody3D.new(), thin_box(), Transform3D(ten(), Vector3.ZERO))
	var box := drop_box(Vector3(6, 2.5, 0))
	await ticks(150)
	check(absf(box.position.y - 1.0) < 0.02,
		"the box rests on the 20 m floor's top (y = 0.5) at y = 1 (y = %f)" % box.position.y)


func test_a_box_rests_on_an_animatable_body_scaled_ten_times() -> void:
	var floor := AnimatableBody3D.new()
	floor.sync_to_physics = false
	add_body(floor, thin_box(), Transform3D(ten(), Vector3.ZERO))
	var box := drop_box(Vector3(-6, 2.5, 3))
	await ticks(150)
	check(absf(box.position.y - 1.0) < 0.02,
		"the box rests on the scaled kinematic floor at y = 1 (y = %f)" % box.position.y)


func test_a_body_scaled_after_it_entered_the_space_collides_at_its_new_scale() -> void:
	var floor: StaticBody3D = add_body(StaticBody3D.new(), thin_box(), Transform3D.IDENTITY)
	await ticks(2)
	floor.scale = Vector3(10, 10, 10)
	var box := drop_box(Vector3(6, 2.5, 0))
	await ticks(150)
	check(absf(box.position.y - 1.0) < 0.02,
		"the box rests on the floor scaled in play at y = 1 (y = %f)" % box.position.y)
	floor.scale = Vector3(1, 1, 1)
	await ticks(60)
	check(box.position.y < 0.0,
		"scaled back, the floor no longer holds the box at x = 6 (y = %f)" % box.position.y)


func test_a_rigid_body_scaled_twice_rests_at_its_scaled_size_and_keeps_its_scale() -> void:
	var floor := BoxShape3D.new()
	floor.size = Vector3(20, 1, 20)
	add_body(StaticBody3D.new(), floor, Transform3D(Basis.IDENTITY, Vector3(0, -0.5, 0)))
	var b := RigidBody3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(1, 1, 1)
	add_body(b, box, Transform3D(Basis.IDENTITY.scaled(Vector3(2, 2, 2)), Vector3(0, 4, 0)))
	await ticks(150)
	check(absf(b.position.y - 1.0) < 0.02,
		"the 2 m box rests with its centre at y = 1 (y = %f)" % b.position.y)
	var s := b.global_transform.basis.get_scale()
	check(s.is_equal_approx(Vector3(2, 2, 2)), "the body keeps its scale (%s)" % s)
	var st := PhysicsServer3D.body_get_direct_state(b.get_rid())
	check(st.transform.basis.get_scale().is_equal_approx(Vector3(2, 2, 2)),
		"its direct state's transform carries the scale (%s)" % st.transform.basis.get_scale())


func test_an_area_scaled_ten_times_detects_a_body_inside_its_scaled_shape() -> void:
	var sphere := SphereShape3D.new()
	sphere.radius = 1.0
	var area: Area3D = add_body(Area3D.new(), sphere, Transform3D(ten(), Vector3.ZERO))
	var b := drop_box(Vector3(6, 0, 0))
	b.gravity_scale = 0.0
	await ticks(4)
	check(area.get_overlapping_bodies().has(b),
		"the body 6 m from the centre is inside the 10 m sphere (%s)" % [area.get_overlapping_bodies()])


func test_a_ray_hits_a_static_sphere_scaled_ten_times_at_its_scaled_radius() -> void:
	var sphere := SphereShape3D.new()
	sphere.radius = 1.0
	add_body(StaticBody3D.new(), sphere, Transform3D(ten(), Vector3(0, 0, 0)))
	await ticks(2)
	var q := PhysicsRayQueryParameters3D.create(Vector3(0, 20, 0), Vector3(0, -20, 0))
	var hit := get_world_3d().direct_space_state.intersect_ray(q)
	check(not hit.is_empty() and absf(hit.position.y - 10.0) < 0.01,
		"the ray meets the sphere's top at y = 10 (%s)" % [hit])


func test_a_box_under_a_non_uniform_scale_and_a_turn_is_the_exact_sheared_solid() -> void:
	# A 2 m cube turned 45° about y in a body scaled (4, 1, 1): in the xz plane the
	# square becomes the rhombus |x|/4 + |z| <= √2, reaching x = 5.66. A box dropped at
	# x = 5 (beyond what a box of the scaled column lengths reaches, 4.12) rests on its top.
	var cube := BoxShape3D.new()
	cube.size = Vector3(2, 1, 2)
	add_body(StaticBody3D.new(), cube,
		Transform3D(Basis.IDENTITY.scaled(Vector3(4, 1, 1)), Vector3.ZERO),
		Transform3D(Basis(Vector3.UP, deg_to_rad(45.0)), Vector3.ZERO))
	var box := drop_box(Vector3(5, 2.0, 0))
	await ticks(150)
	check(absf(box.position.y - 1.0) < 0.02,
		"the box rests on the sheared solid's top (y = 0.5) at y = 1 (y = %f)" % box.position.y)


func test_a_concave_floor_and_a_height_map_scaled_ten_times_hold_boxes() -> void:
	var h := 0.05
	var concave := ConcavePolygonShape3D.new()
	concave.set_faces(PackedVector3Array([Vector3(-1, h, -1), Vector3(1, h, -1),
		Vector3(1, h, 1), Vector3(-1, h, -1), Vector3(1, h, 1), Vector3(-1, h, 1)]))
	add_body(StaticBody3D.new(), concave, Transform3D(ten(), Vector3(0, 0, 0)))
	var map := HeightMapShape3D.new()
	map.map_width = 3
	map.map_depth = 3
	map.map_data = PackedFloat32Array([h, h, h, h, h, h, h, h, h])
	add_body(StaticBody3D.new(), map, Transform3D(ten(), Vector3(40, 0, 0)))
	var a := drop_box(Vector3(6, 2.5, 0))
	var b := drop_box(Vector3(46, 2.5, 0))
	await ticks(150)
	check(absf(a.position.y - 1.0) < 0.02,
		"the box rests on the scaled concave floor at y = 1 (y = %f)" % a.position.y)
	check(absf(b.position.y - 1.0) < 0.02,
		"the box rests on the scaled height map at y = 1 (y = %f)" % b.position.y)


func test_a_box_rides_a_moving_animatable_body_scaled_ten_times() -> void:
	# Moved every tick with the same scale: the body moves (no remaking), so the box on
	# it is carried along.
	var floor := AnimatableBody3D.new()
	add_body(floor, thin_box(), Transform3D(ten(), Vector3.ZERO))
	var box := drop_box(Vector3(6, 1.2, 0))
	await ticks(60)
	var x0 := box.position.x
	for i in 60:
		floor.position.x += 0.02
		await ticks(1)
	check(absf(box.position.y - 1.0) < 0.02,
		"the box stays on the moving floor at y = 1 (y = %f)" % box.position.y)
	check(absf(box.position.x - x0 - 1.2) < 0.1,
		"the box is carried 1.2 m with the floor (moved %f)" % (box.position.x - x0))
