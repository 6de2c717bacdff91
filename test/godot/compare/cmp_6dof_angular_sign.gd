extends "res://compare_case.gd"
# A Generic6DOFJoint3D's angular limit [0, 0.5] about z holds the body at angles
# [−0.5, 0] under Godot Physics and Jolt (Godot's angular axes turn the other way round
# from the core's), and a +1 rad/s angular motor spins it at −1 rad/s under Jolt: Maul3D
# must match (it held [0, 0.5] and spun at +1 before).


func run() -> void:
	var anchor := static_box(Vector3(0.1, 0.1, 0.1), Vector3(0, 10, 0))
	var b := rigid_box(Vector3(0.5, 0.1, 0.1), Vector3(0, 3, 0))
	b.gravity_scale = 0.0
	b.can_sleep = false
	var j := Generic6DOFJoint3D.new()
	j.position = Vector3(0, 3, 0)
	add_child(j)
	j.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_LOWER_LIMIT, 0.0)
	j.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_UPPER_LIMIT, 0.5)
	j.node_a = j.get_path_to(anchor)
	j.node_b = j.get_path_to(b)
	var m := rigid_box(Vector3(0.5, 0.1, 0.1), Vector3(5, 3, 0))
	m.gravity_scale = 0.0
	m.can_sleep = false
	var jm := Generic6DOFJoint3D.new()
	jm.position = Vector3(5, 3, 0)
	add_child(jm)
	jm.set_flag_z(Generic6DOFJoint3D.FLAG_ENABLE_ANGULAR_LIMIT, false)
	jm.set_flag_z(Generic6DOFJoint3D.FLAG_ENABLE_MOTOR, true)
	jm.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_MOTOR_TARGET_VELOCITY, 1.0)
	jm.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_MOTOR_FORCE_LIMIT, 100.0)
	jm.node_a = jm.get_path_to(anchor)
	jm.node_b = jm.get_path_to(m)
	await ticks(2)
	var hi := -INF
	var lo := INF
	for w in [2.0, -2.0]:
		b.angular_velocity = Vector3(0, 0, w)
		for t in 60:
			await ticks(1)
			var x := b.global_transform.basis.x
			hi = maxf(hi, atan2(x.y, x.x))
			lo = minf(lo, atan2(x.y, x.x))
	values = {"hi": hi, "lo": lo, "motor_wz": m.angular_velocity.z}


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty() or m.is_empty():
			continue
		for p in [near("highest angle vs " + e, m.hi, r.hi, 0.05),
				near("lowest angle vs " + e, m.lo, r.lo, 0.05)]:
			if p != "":
				out.append(p)
	var jolt: Dictionary = by["Jolt Physics"]
	if not jolt.is_empty() and not m.is_empty():
		var p := near("motor spin vs Jolt", m.motor_wz, jolt.motor_wz, 0.05)
		if p != "":
			out.append(p)
	return out
