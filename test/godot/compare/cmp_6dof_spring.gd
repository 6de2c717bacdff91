extends "res://compare_case.gd"
# Issue 14 item 9: a Generic6DOFJoint3D's linear spring (stiffness 40 N/m, equilibrium
# point 0.5 m, no damping) swings a 1 kg box about the equilibrium with the period
# 2π√(m/k) ≈ 0.99 s; a damped angular spring (stiffness 4 N·m/rad, damping 1,
# equilibrium 0.4 rad) turns a box towards its equilibrium and settles there. Godot
# Physics does not implement 6-DOF springs, so Maul3D is judged against Jolt (and the
# closed form); the body joined as node_b of a static anchor and as node_a alone.


func free_box(at: Vector3) -> RigidBody3D:
	var b := rigid_box(Vector3(0.5, 0.5, 0.5), at)
	b.gravity_scale = 0.0
	b.linear_damp_mode = RigidBody3D.DAMP_MODE_REPLACE
	b.angular_damp_mode = RigidBody3D.DAMP_MODE_REPLACE
	b.can_sleep = false
	return b


func joint_at(at: Vector3, a: Node3D, b: Node3D) -> Generic6DOFJoint3D:
	var j := Generic6DOFJoint3D.new()
	j.position = at
	add_child(j)
	j.node_a = j.get_path_to(a)
	if b != null:
		j.node_b = j.get_path_to(b)
	return j


func linear_spring(j: Generic6DOFJoint3D) -> void:
	j.set_flag_x(Generic6DOFJoint3D.FLAG_ENABLE_LINEAR_LIMIT, false)
	j.set_flag_x(Generic6DOFJoint3D.FLAG_ENABLE_LINEAR_SPRING, true)
	j.set_param_x(Generic6DOFJoint3D.PARAM_LINEAR_SPRING_STIFFNESS, 40.0)
	j.set_param_x(Generic6DOFJoint3D.PARAM_LINEAR_SPRING_DAMPING, 0.0)
	j.set_param_x(Generic6DOFJoint3D.PARAM_LINEAR_SPRING_EQUILIBRIUM_POINT, 0.5)


func run() -> void:
	var anchor := static_box(Vector3(0.1, 0.1, 0.1), Vector3(0, 10, 0))
	# B of a static anchor.
	var b1 := free_box(Vector3(0, 3, 0))
	linear_spring(joint_at(Vector3(0, 3, 0), anchor, b1))
	# A alone (joined to the world).
	var b2 := free_box(Vector3(0, 6, 0))
	linear_spring(joint_at(Vector3(0, 6, 0), b2, null))
	# A damped angular spring about z.
	var b3 := free_box(Vector3(4, 3, 0))
	var j3 := joint_at(Vector3(4, 3, 0), anchor, b3)
	j3.set_flag_z(Generic6DOFJoint3D.FLAG_ENABLE_ANGULAR_LIMIT, false)
	j3.set_flag_z(Generic6DOFJoint3D.FLAG_ENABLE_ANGULAR_SPRING, true)
	j3.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_SPRING_STIFFNESS, 4.0)
	j3.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_SPRING_DAMPING, 1.0)
	j3.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_SPRING_EQUILIBRIUM_POINT, 0.4)
	var xs1 := PackedFloat32Array()
	var xs2 := PackedFloat32Array()
	for t in 300:
		await ticks(1)
		xs1.append(b1.global_position.x)
		xs2.append(b2.global_position.x)
	var x3 := b3.global_transform.basis.x
	values = {
		"b_mean": mean(xs1), "b_lo": min_of(xs1), "b_hi": max_of(xs1), "b_period": period(xs1),
		"a_mean": mean(xs2), "a_lo": min_of(xs2), "a_hi": max_of(xs2), "a_period": period(xs2),
		"angle": atan2(x3.y, x3.x), "spin": b3.angular_velocity.length(),
	}


func mean(xs: PackedFloat32Array) -> float:
	var s := 0.0
	for x in xs:
		s += x
	return s / xs.size()


func min_of(xs: PackedFloat32Array) -> float:
	var m := INF
	for x in xs:
		m = minf(m, x)
	return m


func max_of(xs: PackedFloat32Array) -> float:
	var m := -INF
	for x in xs:
		m = maxf(m, x)
	return m


## Mean time between upward crossings of the mean, s (-1: under two crossings).
func period(xs: PackedFloat32Array) -> float:
	var c := mean(xs)
	var ups := []
	for i in range(1, xs.size()):
		if xs[i - 1] < c and xs[i] >= c:
			ups.append(i - 1 + (c - xs[i - 1]) / (xs[i] - xs[i - 1]))
	if ups.size() < 2:
		return -1.0
	return (ups[-1] - ups[0]) / (ups.size() - 1) / 60.0


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	if m.is_empty():
		return out
	var closed := TAU * sqrt(1.0 / 40.0)
	for k in ["b", "a"]:
		var p := near(k + " period vs 2π√(m/k)", m[k + "_period"], closed, 0.03 * closed)
		if p != "":
			out.append(p)
	var r: Dictionary = by["Jolt Physics"]
	if r.is_empty():
		return out
	for k in ["b_mean", "b_lo", "b_hi", "a_mean", "a_lo", "a_hi"]:
		var p := near(k + " vs Jolt", m[k], r[k], 0.05)
		if p != "":
			out.append(p)
	for k in ["b_period", "a_period"]:
		var p := near(k + " vs Jolt", m[k], r[k], 0.03 * closed)
		if p != "":
			out.append(p)
	var p := near("angle vs Jolt", m.angle, r.angle, 0.03)
	if p != "":
		out.append(p)
	return out
