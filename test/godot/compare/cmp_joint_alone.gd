extends "res://compare_case.gd"
# Issue 14 item 9: joints with one body (node_a set and node_b empty, or node_b only: the
# body joined to the world). Godot's Joint3D node then passes the body as A and no B;
# Godot Physics measures the world's frame in the body's (limits and motors mirrored),
# Jolt measures the body in the world's (its default `joints/world_node` = Node A, "the
# arguably more intuitive" reading, and Jolt is the default engine of new projects).
# Maul3D follows Jolt: judged against Jolt, and against Godot Physics' mirror image.
# hinge_ab (a hinge between a static anchor and the body) checks the two-body sign.


func alone(body: RigidBody3D, j: Joint3D, as_b: bool) -> void:
	j.position = body.position
	add_child(j)
	if as_b:
		j.node_b = j.get_path_to(body)
	else:
		j.node_a = j.get_path_to(body)


func free_box(at: Vector3) -> RigidBody3D:
	var b := rigid_box(Vector3(0.3, 0.1, 0.1), at)
	b.gravity_scale = 0.0
	b.can_sleep = false
	return b


func six_linear(at: Vector3, as_b: bool) -> RigidBody3D:
	var b := free_box(at)
	var j := Generic6DOFJoint3D.new()
	j.set_param_x(Generic6DOFJoint3D.PARAM_LINEAR_LOWER_LIMIT, 0.0)
	j.set_param_x(Generic6DOFJoint3D.PARAM_LINEAR_UPPER_LIMIT, 0.5)
	alone(b, j, as_b)
	return b


func six_angular(at: Vector3, as_b: bool) -> RigidBody3D:
	var b := free_box(at)
	var j := Generic6DOFJoint3D.new()
	j.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_LOWER_LIMIT, 0.0)
	j.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_UPPER_LIMIT, 0.5)
	alone(b, j, as_b)
	return b


func six_motors(at: Vector3) -> RigidBody3D:
	var b := free_box(at)
	var j := Generic6DOFJoint3D.new()
	j.set_flag_x(Generic6DOFJoint3D.FLAG_ENABLE_LINEAR_LIMIT, false)
	j.set_flag_x(Generic6DOFJoint3D.FLAG_ENABLE_LINEAR_MOTOR, true)
	j.set_param_x(Generic6DOFJoint3D.PARAM_LINEAR_MOTOR_TARGET_VELOCITY, 1.0)
	j.set_param_x(Generic6DOFJoint3D.PARAM_LINEAR_MOTOR_FORCE_LIMIT, 100.0)
	j.set_flag_z(Generic6DOFJoint3D.FLAG_ENABLE_ANGULAR_LIMIT, false)
	j.set_flag_z(Generic6DOFJoint3D.FLAG_ENABLE_MOTOR, true)
	j.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_MOTOR_TARGET_VELOCITY, 1.0)
	j.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_MOTOR_FORCE_LIMIT, 100.0)
	alone(b, j, false)
	return b


func slider(at: Vector3, as_b: bool) -> RigidBody3D:
	var b := free_box(at)
	var j := SliderJoint3D.new()
	j.set_param(SliderJoint3D.PARAM_LINEAR_LIMIT_UPPER, 0.5)
	j.set_param(SliderJoint3D.PARAM_LINEAR_LIMIT_LOWER, -0.1)
	alone(b, j, as_b)
	return b


func hinge(at: Vector3, as_b: bool, anchor: Node3D = null) -> RigidBody3D:
	var b := free_box(at)
	var j := HingeJoint3D.new()
	j.set_flag(HingeJoint3D.FLAG_USE_LIMIT, true)
	j.set_param(HingeJoint3D.PARAM_LIMIT_LOWER, 0.0)
	j.set_param(HingeJoint3D.PARAM_LIMIT_UPPER, 0.5)
	alone(b, j, as_b)
	if anchor != null:
		j.node_a = j.get_path_to(anchor)
	return b


func hinge_motor(at: Vector3, anchor: Node3D) -> RigidBody3D:
	var b := free_box(at)
	var j := HingeJoint3D.new()
	j.set_flag(HingeJoint3D.FLAG_ENABLE_MOTOR, true)
	j.set_param(HingeJoint3D.PARAM_MOTOR_TARGET_VELOCITY, 1.0)
	j.set_param(HingeJoint3D.PARAM_MOTOR_MAX_IMPULSE, 100.0)
	alone(b, j, true)
	if anchor != null:
		j.node_a = j.get_path_to(anchor)
	return b


func angle(b: RigidBody3D) -> float:
	var x := b.global_transform.basis.x
	return atan2(x.y, x.x)


func run() -> void:
	var lin := {"six_lin_a": six_linear(Vector3(0, 2, 0), false),
		"six_lin_b": six_linear(Vector3(0, 4, 0), true),
		"slider_a": slider(Vector3(0, 6, 0), false),
		"slider_b": slider(Vector3(0, 8, 0), true)}
	var ang := {"six_ang_a": six_angular(Vector3(4, 2, 0), false),
		"six_ang_b": six_angular(Vector3(4, 4, 0), true),
		"hinge_a": hinge(Vector3(4, 6, 0), false),
		"hinge_b": hinge(Vector3(4, 8, 0), true),
		"hinge_ab": hinge(Vector3(4, 10, 0), true,
				static_box(Vector3(0.05, 0.05, 0.05), Vector3(4, 11, 0)))}
	var motors := six_motors(Vector3(8, 2, 0))
	var hm := hinge_motor(Vector3(8, 4, 0), null)
	var hm2 := hinge_motor(Vector3(8, 6, 0), static_box(Vector3(0.05, 0.05, 0.05),
			Vector3(8, 7, 0)))
	var start := {}
	for k in lin:
		start[k] = lin[k].global_position.x
	await ticks(2)
	for k in lin:
		values[k + "_hi"] = -INF
		values[k + "_lo"] = INF
	for k in ang:
		values[k + "_hi"] = -INF
		values[k + "_lo"] = INF
	for s in [2.0, -2.0]:
		for k in lin:
			lin[k].linear_velocity = Vector3(s, 0, 0)
		for k in ang:
			ang[k].angular_velocity = Vector3(0, 0, s)
		for t in 45:
			await ticks(1)
			for k in lin:
				var x: float = lin[k].global_position.x - start[k]
				values[k + "_hi"] = maxf(values[k + "_hi"], x)
				values[k + "_lo"] = minf(values[k + "_lo"], x)
			for k in ang:
				var a := angle(ang[k])
				values[k + "_hi"] = maxf(values[k + "_hi"], a)
				values[k + "_lo"] = minf(values[k + "_lo"], a)
	values["motor_vx"] = motors.linear_velocity.x
	values["motor_wz"] = motors.angular_velocity.z
	values["hinge_motor_wz"] = hm.angular_velocity.z
	values["hinge_ab_motor_wz"] = hm2.angular_velocity.z
	print("cmp_joint_alone ", values)


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	var jolt: Dictionary = by["Jolt Physics"]
	var gp: Dictionary = by["GodotPhysics3D"]
	if m.is_empty():
		return out
	var keys := ["six_lin_a", "six_lin_b", "slider_a", "slider_b", "six_ang_a", "six_ang_b",
		"hinge_a", "hinge_b", "hinge_ab"]
	for k in keys:
		if not jolt.is_empty():
			for p in [near(k + " highest vs Jolt", m[k + "_hi"], jolt[k + "_hi"], 0.05),
					near(k + " lowest vs Jolt", m[k + "_lo"], jolt[k + "_lo"], 0.05)]:
				if p != "":
					out.append(p)
	if not jolt.is_empty():
		for k in ["motor_vx", "motor_wz", "hinge_motor_wz", "hinge_ab_motor_wz"]:
			var p := near(k + " vs Jolt", m[k], jolt[k], 0.05)
			if p != "":
				out.append(p)
	# Godot Physics is the mirror image (its 6-DOF motors run only one way round; its
	# hinge limit is soft enough to overshoot, so only the 6-DOF and slider limits).
	if not gp.is_empty():
		for k in ["six_lin_a", "six_lin_b", "slider_a", "slider_b", "six_ang_a", "six_ang_b"]:
			for p in [near(k + " highest vs Godot Physics' mirror", m[k + "_hi"],
					-gp[k + "_lo"], 0.06),
					near(k + " lowest vs Godot Physics' mirror", m[k + "_lo"],
					-gp[k + "_hi"], 0.06)]:
				if p != "":
					out.append(p)
	return out
