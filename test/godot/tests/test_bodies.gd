extends "res://test_case.gd"


func add_static_box(pos: Vector3, half: Vector3) -> StaticBody3D:
	var body := StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = half * 2.0
	shape.shape = box
	body.add_child(shape)
	body.position = pos
	add_child(body)
	return body


func add_rigid_box(pos: Vector3, half: Vector3) -> RigidBody3D:
	var body := RigidBody3D.new()
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = half * 2.0
	shape.shape = box
	body.add_child(shape)
	body.position = pos
	add_child(body)
	return body


func test_a_box_falls_and_rests_on_a_static_floor() -> void:
	add_static_box(Vector3(0, -0.5, 0), Vector3(10, 0.5, 10))
	var box := add_rigid_box(Vector3(0, 3, 0), Vector3(0.5, 0.5, 0.5))
	await ticks(20)
	# Free fall from y = 3 for 20 ticks of 1/60 s under 9.8 m/s² (damping 0.1/s): below
	# 3 - ½·9.8·(1/3)² ≈ 2.46 plus a little; still well above the floor.
	check(box.position.y < 2.6 and box.position.y > 1.5,
		"after 1/3 s the box has fallen about 0.5 m (y = %f)" % box.position.y)
	await ticks(160)
	check(absf(box.position.y - 0.5) < 0.05,
		"the box rests on the floor top at y = 0.5 (y = %f)" % box.position.y)
	check(box.linear_velocity.length() < 0.05,
		"the resting box is still (|v| = %f)" % box.linear_velocity.length())
	check(absf(box.position.x) < 0.01 and absf(box.position.z) < 0.01,
		"it fell straight down (x = %f, z = %f)" % [box.position.x, box.position.z])


func test_three_stacked_boxes_stand() -> void:
	add_static_box(Vector3(0, -0.5, 0), Vector3(10, 0.5, 10))
	var boxes: Array[RigidBody3D] = []
	for i in 3:
		boxes.append(add_rigid_box(Vector3(0, 0.5 + i * 1.0, 0), Vector3(0.5, 0.5, 0.5)))
	await ticks(180)
	for i in 3:
		var b := boxes[i]
		check(absf(b.position.y - (0.5 + i)) < 0.05,
			"box %d rests at y = %f (y = %f)" % [i, 0.5 + i, b.position.y])
		check(Vector2(b.position.x, b.position.z).length() < 0.05,
			"box %d did not slide (x = %f, z = %f)" % [i, b.position.x, b.position.z])


func test_a_rigid_body_pyramid_stands() -> void:
	add_static_box(Vector3(0, -0.5, 0), Vector3(20, 0.5, 20))
	var rows := 6
	var boxes: Array[RigidBody3D] = []
	var starts: Array[Vector3] = []
	for row in rows:
		for i in rows - row:
			var pos := Vector3((i - (rows - row - 1) * 0.5) * 1.05, 0.5 + row * 1.0, 0)
			boxes.append(add_rigid_box(pos, Vector3(0.5, 0.5, 0.5)))
			starts.append(pos)
	await ticks(300)
	var worst := 0.0
	for i in boxes.size():
		worst = maxf(worst, boxes[i].position.distance_to(starts[i]))
	check(worst < 0.1, "after 5 s no box of the 21-box pyramid moved 0.1 m (worst %f)" % worst)


func test_ray_cast_3d_hits_the_floor_top() -> void:
	add_static_box(Vector3(0, -0.5, 0), Vector3(10, 0.5, 10))
	var ray := RayCast3D.new()
	ray.position = Vector3(1, 5, 2)
	ray.target_position = Vector3(0, -10, 0)
	add_child(ray)
	await ticks(2)
	ray.force_raycast_update()
	check(ray.is_colliding(), "the ray hits the floor")
	check(ray.get_collision_point().distance_to(Vector3(1, 0, 2)) < 0.001,
		"at the floor top (1, 0, 2): %s" % ray.get_collision_point())
	check(ray.get_collision_normal().distance_to(Vector3.UP) < 0.001,
		"with normal up: %s" % ray.get_collision_normal())
	var query := PhysicsRayQueryParameters3D.create(Vector3(5, 5, 5), Vector3(5, 1, 5))
	var hit := get_world_3d().direct_space_state.intersect_ray(query)
	check(hit.is_empty(), "a ray that stops above the floor hits nothing")


func test_a_contact_monitoring_rigid_body_reports_the_floor_once() -> void:
	var floor_body := add_static_box(Vector3(0, -0.5, 0), Vector3(10, 0.5, 10))
	var box := add_rigid_box(Vector3(0, 2, 0), Vector3(0.5, 0.5, 0.5))
	box.contact_monitor = true
	box.max_contacts_reported = 4
	var entered: Array[Node] = []
	box.body_entered.connect(func(b): entered.append(b))
	await ticks(120)
	check(entered.size() == 1, "body_entered once (%d)" % entered.size())
	check(entered.size() > 0 and entered[0] == floor_body, "with the floor")
	var contacts := box.get_colliding_bodies()
	check(contacts.size() == 1 and contacts[0] == floor_body, "resting, it collides with the floor only (%s)" % [contacts])


func test_a_resting_box_reports_its_floor_contacts_with_the_solver_impulse() -> void:
	var floor_body := add_static_box(Vector3(0, -0.5, 0), Vector3(10, 0.5, 10))
	var box := add_rigid_box(Vector3(3, 0.55, 0), Vector3(0.5, 0.5, 0.5))
	box.contact_monitor = true
	box.max_contacts_reported = 8
	await ticks(90)
	var ds := PhysicsServer3D.body_get_direct_state(box.get_rid())
	var n := ds.get_contact_count()
	check(n == 4, "the box touches the floor at its 4 bottom corners (%d contacts)" % n)
	# Over one tick the floor holds the box up with an impulse of m·g·dt.
	var weight := box.mass * 9.8 / 60.0
	var total := Vector3.ZERO
	for i in n:
		var impulse := ds.get_contact_impulse(i)
		total += impulse
		var normal := ds.get_contact_local_normal(i)
		check(normal.distance_to(Vector3.UP) < 1e-3,
			"contact %d: the normal points from the floor up to the box (%s)" % [i, normal])
		check(impulse.y > 0.1 * weight, "contact %d pushes the box up (%s)" % [i, impulse])
		# Godot 4 reports the contact position in global coordinates.
		var p := ds.get_contact_local_position(i)
		check(absf(p.y) < 0.01 and absf(absf(p.x - 3.0) - 0.5) < 0.01 and absf(absf(p.z) - 0.5) < 0.01,
			"contact %d is at a bottom corner of the box, global (%s)" % [i, p])
		check(ds.get_contact_collider(i) == floor_body.get_rid(), "contact %d: the collider is the floor" % i)
		check(ds.get_contact_collider_object(i) == floor_body, "contact %d: the collider object is the floor" % i)
		check(ds.get_contact_collider_shape(i) == 0 and ds.get_contact_local_shape(i) == 0,
			"contact %d: shape indices 0 and 0 (%d, %d)" % [i, ds.get_contact_collider_shape(i), ds.get_contact_local_shape(i)])
		check(ds.get_contact_collider_velocity_at_position(i).length() < 1e-6,
			"contact %d: the floor does not move" % i)
		check(ds.get_contact_local_velocity_at_position(i).length() < 0.01,
			"contact %d: the resting box's corner is still" % i)
	check(absf(total.y - weight) < 0.02 * weight,
		"the contacts' impulses add up to m·g·dt = %f (%f)" % [weight, total.y])
	check(Vector2(total.x, total.z).length() < 0.01 * weight,
		"friction holds nothing: the sideways impulses cancel (%s)" % total)


func test_a_box_hovering_just_above_the_floor_reports_no_contact() -> void:
	# 1.5 cm up, within the solver's speculative distance (2 cm): the core has a contact
	# ready, but nothing touches and nothing pushes, so Godot hears of none.
	add_static_box(Vector3(0, -0.5, 0), Vector3(10, 0.5, 10))
	var box := add_rigid_box(Vector3(0, 0.515, 0), Vector3(0.5, 0.5, 0.5))
	box.gravity_scale = 0.0
	box.contact_monitor = true
	box.max_contacts_reported = 8
	await ticks(10)
	var ds := PhysicsServer3D.body_get_direct_state(box.get_rid())
	check(absf(box.position.y - 0.515) < 1e-4, "the box hovers (y = %f)" % box.position.y)
	check(ds.get_contact_count() == 0, "no contact reported (%d)" % ds.get_contact_count())
	# Let it fall the 1.5 cm: it touches.
	box.gravity_scale = 1.0
	await ticks(30)
	check(ds.get_contact_count() == 4, "landed, it reports 4 contacts (%d)" % ds.get_contact_count())


func test_contacts_name_the_shapes_that_touch_on_either_side() -> void:
	# The floor's shape 1 is under the body; the body's boxes 0 and 1 both rest on it.
	var floor_body := add_static_box(Vector3(50, -0.5, 0), Vector3(1, 0.5, 1))
	var under := CollisionShape3D.new()
	var slab := BoxShape3D.new()
	slab.size = Vector3(20, 1, 20)
	under.shape = slab
	under.position = Vector3(-50, 0, 0)
	floor_body.add_child(under)
	var body := RigidBody3D.new()
	for x in [-1.0, 1.0]:
		var cs := CollisionShape3D.new()
		var cube := BoxShape3D.new()
		cube.size = Vector3(1, 1, 1)
		cs.shape = cube
		cs.position = Vector3(x, 0, 0)
		body.add_child(cs)
	body.position = Vector3(0, 0.55, 0)
	body.contact_monitor = true
	body.max_contacts_reported = 16
	add_child(body)
	await ticks(90)
	var ds := PhysicsServer3D.body_get_direct_state(body.get_rid())
	var n := ds.get_contact_count()
	check(n == 8, "two boxes on the floor: 8 contact points (%d)" % n)
	var weight := body.mass * 9.8 / 60.0
	var total := 0.0
	for i in n:
		var p := ds.get_contact_local_position(i)
		var own := 0 if p.x < 0.0 else 1
		check(ds.get_contact_local_shape(i) == own,
			"contact %d at x = %f is on the body's shape %d (%d)" % [i, p.x, own, ds.get_contact_local_shape(i)])
		check(ds.get_contact_collider_shape(i) == 1,
			"contact %d is on the floor's shape 1 (%d)" % [i, ds.get_contact_collider_shape(i)])
		total += ds.get_contact_impulse(i).y
	check(absf(total - weight) < 0.02 * weight, "the impulses carry m·g·dt = %f (%f)" % [weight, total])
	# A smaller report keeps the first contacts only.
	body.max_contacts_reported = 3
	await ticks(1)
	check(ds.get_contact_count() == 3, "max_contacts_reported = 3 reports 3 (%d)" % ds.get_contact_count())


func test_bodies_collide_when_either_mask_sees_the_other_layer() -> void:
	# Godot's rule: the box (layer 2, mask 1) sees the floor (layer 1, mask 1) though the
	# floor's mask does not see layer 2.
	add_static_box(Vector3(0, -0.5, 0), Vector3(10, 0.5, 10))
	var box := add_rigid_box(Vector3(0, 2, 0), Vector3(0.5, 0.5, 0.5))
	box.collision_layer = 2
	box.collision_mask = 1
	var ghost := add_rigid_box(Vector3(3, 2, 0), Vector3(0.5, 0.5, 0.5))
	ghost.collision_layer = 4
	ghost.collision_mask = 4
	await ticks(120)
	check(absf(box.position.y - 0.5) < 0.05, "the layer-2 box rests on the floor (y = %f)" % box.position.y)
	check(ghost.position.y < -1.0, "a box whose mask and layer meet nothing falls through (y = %f)" % ghost.position.y)


func test_a_collision_exception_lets_a_box_fall_through_another() -> void:
	add_static_box(Vector3(0, -0.5, 0), Vector3(10, 0.5, 10))
	var lower := add_rigid_box(Vector3(0, 0.5, 0), Vector3(0.5, 0.5, 0.5))
	var upper := add_rigid_box(Vector3(0, 3, 0), Vector3(0.25, 0.25, 0.25))
	upper.add_collision_exception_with(lower)
	var other := add_rigid_box(Vector3(3, 3, 0), Vector3(0.25, 0.25, 0.25))
	var base := add_rigid_box(Vector3(3, 0.5, 0), Vector3(0.5, 0.5, 0.5))
	await ticks(150)
	check(absf(upper.position.y - 0.25) < 0.05,
		"the excepted box passes through the lower box to the floor (y = %f)" % upper.position.y)
	check(absf(other.position.y - 1.25) < 0.05,
		"without the exception a box lands on the lower box (y = %f)" % other.position.y)
	check(absf(lower.position.y - 0.5) < 0.05 and absf(base.position.y - 0.5) < 0.05,
		"the lower boxes stay on the floor")


func test_a_custom_integrator_body_moves_only_as_integrate_forces_says() -> void:
	var body: RigidBody3D = load("res://integrator_body.gd").new()
	var shape := CollisionShape3D.new()
	shape.shape = SphereShape3D.new()
	body.add_child(shape)
	body.custom_integrator = true
	body.position = Vector3(0, 5, 0)
	add_child(body)
	await ticks(61)
	check(body.calls >= 59, "_integrate_forces ran every tick (%d calls)" % body.calls)
	check(absf(body.position.y - 5.0) < 1e-3, "no gravity with a custom integrator (y = %f)" % body.position.y)
	check(absf(body.position.x - 1.0) < 0.05, "1 m/s for about 1 s moved it 1 m along x (x = %f)" % body.position.x)


func test_an_animatable_platform_lifts_a_box_and_can_be_teleported() -> void:
	var platform := AnimatableBody3D.new()
	var shape := CollisionShape3D.new()
	var b := BoxShape3D.new()
	b.size = Vector3(4, 0.2, 4)
	shape.shape = b
	platform.add_child(shape)
	platform.position = Vector3(0, 0, 0)
	add_child(platform)
	var box := add_rigid_box(Vector3(0, 0.6, 0), Vector3(0.5, 0.5, 0.5))
	await ticks(30)
	var y0 := box.position.y
	for i in 60:
		await get_tree().physics_frame
		platform.position.y += 1.0 / 60.0
	await ticks(2)
	check(absf(box.position.y - (y0 + 1.0)) < 0.05,
		"the box rode the platform up 1 m (%f -> %f)" % [y0, box.position.y])
	platform.position = Vector3(50, 0, 0)
	await ticks(3)
	var space_state := get_world_3d().direct_space_state
	var q := PhysicsRayQueryParameters3D.create(Vector3(50, 5, 0), Vector3(50, -5, 0))
	var hit := space_state.intersect_ray(q)
	check(not hit.is_empty() and hit["collider"] == platform,
		"a platform moved 50 m in one tick is there at once (teleport)")
	check(absf(platform.position.y) < 1e-4, "and it stopped there (y = %f)" % platform.position.y)


func test_a_box_asleep_on_an_animatable_platform_rides_it_when_it_moves() -> void:
	var platform := AnimatableBody3D.new()
	var shape := CollisionShape3D.new()
	var b := BoxShape3D.new()
	b.size = Vector3(4, 0.2, 4)
	shape.shape = b
	platform.add_child(shape)
	platform.position = Vector3(0, 0, 0)
	add_child(platform)
	var box := add_rigid_box(Vector3(0, 0.6, 0), Vector3(0.5, 0.5, 0.5))
	for i in 300:
		if box.sleeping:
			break
		await get_tree().physics_frame
	check(box.sleeping, "the box fell asleep on the platform")
	var x0 := box.position.x
	for i in 60:
		await get_tree().physics_frame
		platform.position.x += 1.0 / 60.0
	await ticks(2)
	check(absf(box.position.x - (x0 + 1.0)) < 0.1,
		"the sleeping box woke and rode the platform 1 m along x (%f -> %f)" % [x0, box.position.x])


func test_a_platform_moved_by_script_reports_the_velocity_of_its_move_until_it_stops() -> void:
	var platform := AnimatableBody3D.new()
	var shape := CollisionShape3D.new()
	var b := BoxShape3D.new()
	b.size = Vector3(4, 0.2, 4)
	shape.shape = b
	platform.add_child(shape)
	add_child(platform)
	await ticks(2)
	var rid := platform.get_rid()
	for i in 10:
		await get_tree().physics_frame
		# One transform (with sync_to_physics each assignment is sent, then undone).
		platform.transform = Transform3D(Basis(Vector3.UP, 0.02 * (i + 1)), Vector3(0.05 * (i + 1), 0, 0))
	await get_tree().physics_frame
	# After the step that made the last move, before the next: the move's velocity.
	var state := PhysicsServer3D.body_get_direct_state(rid)
	check(state.linear_velocity.distance_to(Vector3(3, 0, 0)) < 1e-3,
		"0.05 m per 1/60 s tick reads 3 m/s along x (%s)" % state.linear_velocity)
	check(state.angular_velocity.distance_to(Vector3(0, 1.2, 0)) < 1e-3,
		"0.02 rad per tick reads 1.2 rad/s about y (%s)" % state.angular_velocity)
	var v: Vector3 = PhysicsServer3D.body_get_state(rid, PhysicsServer3D.BODY_STATE_LINEAR_VELOCITY)
	check(v.distance_to(Vector3(3, 0, 0)) < 1e-3, "body_get_state reads it too (%s)" % v)
	await ticks(2)
	state = PhysicsServer3D.body_get_direct_state(rid)
	check(state.linear_velocity == Vector3.ZERO and state.angular_velocity == Vector3.ZERO,
		"not moved since, it stops (%s, %s)" % [state.linear_velocity, state.angular_velocity])
	check(absf(platform.position.x - 0.5) < 1e-4, "and stays where it was moved (x = %f)" % platform.position.x)


func test_space_get_contacts_shows_the_points_of_a_box_resting_on_the_floor() -> void:
	# A viewport with a world of its own entering the tree with "Visible Collision
	# Shapes" on asks its space for debug contacts (space_set_debug_contacts), as Godot
	# does at start with --debug-collisions; one entering with it off does not.
	var off := SubViewport.new()
	off.own_world_3d = true
	add_child(off)
	var tree := get_tree()
	var was := tree.debug_collisions_hint
	tree.debug_collisions_hint = true
	var view := SubViewport.new()
	view.own_world_3d = true
	add_child(view)
	tree.debug_collisions_hint = was
	var floor_body := add_static_box(Vector3(0, -0.5, 0), Vector3(10, 0.5, 10))
	var box := add_rigid_box(Vector3(2, 0.55, 0), Vector3(0.5, 0.5, 0.5))
	for n in [floor_body, box]:
		remove_child(n)
		view.add_child(n)
	var twin := add_rigid_box(Vector3(2, 0.55, 0), Vector3(0.5, 0.5, 0.5))
	remove_child(twin)
	off.add_child(twin)
	off.add_child(add_floor_copy())
	await ticks(60)
	var points := Maul3D.space_debug_contacts(view.find_world_3d().space)
	# Both surface points of each of the 4 corner contacts, as Godot Physics and Jolt.
	check(points.size() == 8, "8 debug contact points (%d)" % points.size())
	for p in points:
		check(absf(p.y) < 0.02 and absf(absf(p.x - 2.0) - 0.5) < 0.02 and absf(absf(p.z) - 0.5) < 0.02,
			"a debug contact point at a bottom corner of the box (%s)" % p)
	var none := Maul3D.space_debug_contacts(off.find_world_3d().space)
	check(none.is_empty(), "no debug contacts where they were not asked for (%d)" % none.size())
	view.queue_free()
	off.queue_free()


func add_floor_copy() -> StaticBody3D:
	var b := add_static_box(Vector3(0, -0.5, 0), Vector3(10, 0.5, 10))
	remove_child(b)
	return b
