extends "res://test_case.gd"
# A body's shape index is Godot's, however many shapes it has: shape 299 of 300 is
# reported as 299 (not 299 mod 256) by queries, contacts and area signals.


func test_a_body_with_300_shapes_reports_shape_299_in_queries_and_contacts() -> void:
	var sp := space()
	var origin := Vector3(100, 40, 0)
	var box := PhysicsServer3D.box_shape_create()
	PhysicsServer3D.shape_set_data(box, Vector3(0.4, 0.4, 0.4))
	var body := PhysicsServer3D.body_create()
	PhysicsServer3D.body_set_mode(body, PhysicsServer3D.BODY_MODE_STATIC)
	PhysicsServer3D.body_set_state(body, PhysicsServer3D.BODY_STATE_TRANSFORM, Transform3D(Basis(), origin))
	for i in 300:
		PhysicsServer3D.body_add_shape(body, box, Transform3D(Basis(), Vector3(i, 0, 0)))
	PhysicsServer3D.body_set_space(body, sp)
	check(PhysicsServer3D.body_get_shape_count(body) == 300, "the body has 300 shapes (%d)" % PhysicsServer3D.body_get_shape_count(body))

	var state := PhysicsServer3D.space_get_direct_state(sp)
	var top := origin + Vector3(299, 2, 0)
	var ray := PhysicsRayQueryParameters3D.create(top, top - Vector3(0, 4, 0))
	var hit := state.intersect_ray(ray)
	check(hit.get("rid") == body and hit.get("shape") == 299, "a ray onto the last box hits shape 299 (%s)" % [hit])
	for index in [0, 255, 256, 299]:
		var point := PhysicsPointQueryParameters3D.new()
		point.position = origin + Vector3(index, 0, 0)
		var found := state.intersect_point(point)
		check(found.size() == 1 and found[0]["shape"] == index,
			"a point in box %d is in shape %d (%s)" % [index, index, found])

	# A ball resting on box 299 reports it as the collider's shape.
	var ball := RigidBody3D.new()
	var cs := CollisionShape3D.new()
	var sphere := SphereShape3D.new()
	sphere.radius = 0.3
	cs.shape = sphere
	ball.add_child(cs)
	ball.contact_monitor = true
	ball.max_contacts_reported = 4
	ball.position = origin + Vector3(299, 1.5, 0)
	add_child(ball)
	await ticks(60)
	var ds := PhysicsServer3D.body_get_direct_state(ball.get_rid())
	check(ds.get_contact_count() > 0, "the ball touches the body (%d contacts)" % ds.get_contact_count())
	if ds.get_contact_count() > 0:
		check(ds.get_contact_collider_shape(0) == 299,
			"the contact's collider shape is 299 (%d)" % ds.get_contact_collider_shape(0))
	# A motion test of the ball down onto box 299 names it too.
	var motion := PhysicsTestMotionParameters3D.new()
	motion.from = Transform3D(Basis(), origin + Vector3(299, 1.5, 0))
	motion.motion = Vector3(0, -3, 0)
	var result := PhysicsTestMotionResult3D.new()
	var collided := PhysicsServer3D.body_test_motion(ball.get_rid(), motion, result)
	check(collided and result.get_collider_shape(0) == 299,
		"a motion test onto box 299 reports collider shape 299 (%s, %d)" % [collided, result.get_collider_shape(0)])
	ball.queue_free()
	PhysicsServer3D.free_rid(body)
	PhysicsServer3D.free_rid(box)


var area_shapes_entered: Array[int] = []


func test_an_area_with_300_shapes_reports_entry_into_shape_299() -> void:
	var origin := Vector3(100, 80, 10)
	var area := Area3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(0.8, 0.8, 0.8)
	for i in 300:
		var cs := CollisionShape3D.new()
		cs.shape = box
		cs.position = Vector3(i, 0, 0)
		area.add_child(cs)
	area.position = origin
	add_child(area)
	area.body_shape_entered.connect(
		func(_rid: RID, _body: Node3D, _body_shape: int, local_shape: int) -> void:
			area_shapes_entered.append(local_shape))
	await ticks(2)
	check(PhysicsServer3D.area_get_shape_count(area.get_rid()) == 300, "the area has 300 shapes")
	var ball := RigidBody3D.new()
	var cs := CollisionShape3D.new()
	var sphere := SphereShape3D.new()
	sphere.radius = 0.2
	cs.shape = sphere
	ball.add_child(cs)
	ball.position = origin + Vector3(299, 1.5, 0)
	add_child(ball)
	await ticks(40)
	check(area_shapes_entered.has(299) and not area_shapes_entered.has(43),
		"the ball entered area shape 299 (entered %s)" % [area_shapes_entered])
	ball.queue_free()
	area.queue_free()
