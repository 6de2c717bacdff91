extends "res://test_case.gd"


func add_door() -> RigidBody3D:
	# A 1 m wide, 2 m tall door, hinge edge at x = 0, centre at (0.5, 1.5, 0).
	var door := RigidBody3D.new()
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(1, 2, 0.1)
	shape.shape = box
	door.add_child(shape)
	door.position = Vector3(0.5, 1.5, 0)
	door.gravity_scale = 0.0
	door.angular_damp_mode = RigidBody3D.DAMP_MODE_REPLACE
	door.angular_damp = 0.0
	door.linear_damp_mode = RigidBody3D.DAMP_MODE_REPLACE
	door.linear_damp = 0.0
	add_child(door)
	return door


func add_hinge(door: RigidBody3D) -> HingeJoint3D:
	var hinge := HingeJoint3D.new()
	hinge.position = Vector3(0, 1.5, 0)
	hinge.rotation_degrees = Vector3(-90, 0, 0)  # the joint's z axis points up
	add_child(hinge)
	hinge.node_a = hinge.get_path_to(door)
	return hinge


func hinge_angle(door: RigidBody3D) -> float:
	var out := door.global_transform.basis.x
	return atan2(-out.z, out.x)


func test_hinge_joint_3d_door_swings_about_its_hinge() -> void:
	var door := add_door()
	add_hinge(door)
	await ticks(2)
	# A push on the free edge, towards -z: the door turns about +y.
	door.apply_impulse(Vector3(0, 0, -2), Vector3(0.5, 0, 0))
	await ticks(30)
	var angle := hinge_angle(door)
	check(angle > 0.3, "the door swung open (%f rad)" % angle)
	var edge := door.global_transform * Vector3(-0.5, 0, 0)
	check(edge.distance_to(Vector3(0, 1.5, 0)) < 0.01,
		"its hinge edge stays on the hinge (%s)" % edge)
	check(absf(door.global_position.y - 1.5) < 0.01, "it does not sag (y = %f)" % door.global_position.y)


func test_hinge_joint_3d_limit_stops_the_door() -> void:
	var door := add_door()
	var hinge := add_hinge(door)
	hinge.set_flag(HingeJoint3D.FLAG_USE_LIMIT, true)
	hinge.set_param(HingeJoint3D.PARAM_LIMIT_UPPER, deg_to_rad(45))
	hinge.set_param(HingeJoint3D.PARAM_LIMIT_LOWER, deg_to_rad(-45))
	await ticks(2)
	door.apply_impulse(Vector3(0, 0, -2), Vector3(0.5, 0, 0))
	var widest := 0.0
	for i in 120:
		await get_tree().physics_frame
		widest = maxf(widest, hinge_angle(door))
	check(widest > deg_to_rad(40) and widest < deg_to_rad(50),
		"the door opens to the 45-degree limit and no further (%f deg)" % rad_to_deg(widest))


func test_generic_6dof_joint_motor_spins_a_body_about_its_free_axis() -> void:
	# About z: the core's 6-DOF measures rotations as XYZ Euler angles (as Bullet's and
	# Godot Physics' do), whose middle axis y cannot turn past 90 degrees with x and z held.
	var body := RigidBody3D.new()
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(1, 0.2, 0.2)
	shape.shape = box
	body.add_child(shape)
	body.position = Vector3(0, 3, 0)
	body.gravity_scale = 0.0
	add_child(body)
	var joint := Generic6DOFJoint3D.new()
	joint.position = Vector3(0, 3, 0)
	add_child(joint)
	joint.set_flag_z(Generic6DOFJoint3D.FLAG_ENABLE_ANGULAR_LIMIT, false)
	joint.set_flag_z(Generic6DOFJoint3D.FLAG_ENABLE_MOTOR, true)
	joint.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_MOTOR_TARGET_VELOCITY, 2.0)
	joint.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_MOTOR_FORCE_LIMIT, 100.0)
	joint.node_a = joint.get_path_to(body)
	await ticks(60)
	var w := body.angular_velocity
	check(absf(absf(w.z) - 2.0) < 0.1, "the motor turns it at 2 rad/s about z (%s)" % w)
	check(absf(w.x) < 0.01 and absf(w.y) < 0.01, "the other angular axes stay locked (%s)" % w)
	check(body.position.distance_to(Vector3(0, 3, 0)) < 0.01, "its centre stays put (%s)" % body.position)
