extends "res://test_case.gd"


func add_world_boundary(plane: Plane) -> StaticBody3D:
	var body := StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var boundary := WorldBoundaryShape3D.new()
	boundary.plane = plane
	shape.shape = boundary
	body.add_child(shape)
	add_child(body)
	return body


func add_rigid_cylinder(pos: Vector3, basis: Basis, radius: float, height: float) -> RigidBody3D:
	var body := RigidBody3D.new()
	var shape := CollisionShape3D.new()
	var cylinder := CylinderShape3D.new()
	cylinder.radius = radius
	cylinder.height = height
	shape.shape = cylinder
	body.add_child(shape)
	body.transform = Transform3D(basis, pos)
	add_child(body)
	return body


func test_a_standing_cylinder_comes_to_rest_on_a_world_boundary() -> void:
	add_world_boundary(Plane(Vector3.UP, 0.0))
	var c := add_rigid_cylinder(Vector3(0, 2, 0), Basis.IDENTITY, 0.5, 1.2)
	await ticks(180)
	check(absf(c.position.y - 0.6) < 0.01,
		"the cylinder stands on its cap at half its height, y = 0.6 (y = %f)" % c.position.y)
	check(c.linear_velocity.length() < 0.01,
		"the standing cylinder is still (|v| = %f)" % c.linear_velocity.length())
	check(c.transform.basis.y.dot(Vector3.UP) > 0.999,
		"it stands upright (axis·up = %f)" % c.transform.basis.y.dot(Vector3.UP))


func test_a_raised_world_boundary_holds_a_box_at_its_offset() -> void:
	# Plane(normal, d): the surface is y = 2; everything below is solid.
	add_world_boundary(Plane(Vector3.UP, 2.0))
	var body := RigidBody3D.new()
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(1, 1, 1)
	shape.shape = box
	body.add_child(shape)
	body.position = Vector3(3, 5, -1)
	add_child(body)
	await ticks(180)
	check(absf(body.position.y - 2.5) < 0.01,
		"the box rests on the boundary at y = 2 + 0.5 (y = %f)" % body.position.y)


func test_a_lying_cylinder_rolls_down_a_tilted_world_boundary() -> void:
	# A boundary tilted 10° about z: the cylinder lies along z and rolls towards +x.
	var angle := deg_to_rad(10.0)
	var n := Vector3(sin(angle), cos(angle), 0)
	add_world_boundary(Plane(n, 0.0))
	var lying := Basis(Vector3(1, 0, 0), PI * 0.5)
	var c := add_rigid_cylinder(n * 0.5, lying, 0.5, 1.0)
	await ticks(60)
	# A solid cylinder rolls with a = 2/3 g sin θ: after 1 s, v ≈ 2/3·9.8·sin 10° ≈ 1.13
	# (Godot's default damping takes a little).
	var v := c.linear_velocity.length()
	check(v > 0.9 and v < 1.2, "after 1 s it rolls at about 1.1 m/s (|v| = %f)" % v)
	check(c.angular_velocity.length() * 0.5 > v * 0.95,
		"it rolls rather than slides (ω·r = %f, v = %f)" % [c.angular_velocity.length() * 0.5, v])
	check(c.position.dot(n) > 0.49 and c.position.dot(n) < 0.52,
		"its axis stays at one radius above the slope (%f)" % c.position.dot(n))


func test_a_ray_hits_a_cylinder_side_at_its_radius() -> void:
	var body := StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var cylinder := CylinderShape3D.new()
	cylinder.radius = 0.75
	cylinder.height = 2.0
	shape.shape = cylinder
	body.add_child(shape)
	body.position = Vector3(0, 1, 0)
	add_child(body)
	await ticks(2)
	var space := get_world_3d().direct_space_state
	var hit := space.intersect_ray(PhysicsRayQueryParameters3D.create(Vector3(-5, 1.5, 0), Vector3(5, 1.5, 0)))
	check(not hit.is_empty(), "the ray hits the cylinder")
	if not hit.is_empty():
		check(absf(hit.position.x + 0.75) < 1e-4,
			"it hits the side at x = -0.75 (x = %f)" % hit.position.x)
		check(hit.normal.distance_to(Vector3(-1, 0, 0)) < 1e-4,
			"with the side's normal (%s)" % str(hit.normal))
