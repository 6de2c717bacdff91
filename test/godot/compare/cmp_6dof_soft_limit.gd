extends "res://compare_case.gd"
# Issue 14 item 9: a Generic6DOFJoint3D stops a box sent along its x limit (±0.5 m) and
# spun about its z limit (±0.5 rad) on every engine; with limit softness away from
# Godot's defaults (linear 0.25, angular 0.1) Maul3D lets it give past the limit and
# pushes it back (a soft limit: Godot Physics' impulse per tick read as a spring). Jolt
# ignores limit softness; Godot Physics' own reading is reported, not judged (its 16
# solver iterations converge to the same correction whatever the softness, so it stops
# the box about a tick past the limit, soft or not).


func six_dof_box(at: Vector3, anchor: Node3D, lin_soft: float, ang_soft: float) -> RigidBody3D:
	var b := rigid_box(Vector3(0.2, 0.2, 0.2), at)
	b.gravity_scale = 0.0
	b.linear_damp_mode = RigidBody3D.DAMP_MODE_REPLACE
	b.angular_damp_mode = RigidBody3D.DAMP_MODE_REPLACE
	b.can_sleep = false
	var j := Generic6DOFJoint3D.new()
	j.position = at
	add_child(j)
	j.set_param_x(Generic6DOFJoint3D.PARAM_LINEAR_LOWER_LIMIT, -0.5)
	j.set_param_x(Generic6DOFJoint3D.PARAM_LINEAR_UPPER_LIMIT, 0.5)
	j.set_param_x(Generic6DOFJoint3D.PARAM_LINEAR_LIMIT_SOFTNESS, lin_soft)
	j.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_LOWER_LIMIT, -0.5)
	j.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_UPPER_LIMIT, 0.5)
	j.set_param_z(Generic6DOFJoint3D.PARAM_ANGULAR_LIMIT_SOFTNESS, ang_soft)
	j.node_a = j.get_path_to(anchor)
	j.node_b = j.get_path_to(b)
	return b


func run() -> void:
	var anchor := static_box(Vector3(0.1, 0.1, 0.1), Vector3(0, 10, 0))
	var rigid := six_dof_box(Vector3(0, 3, 0), anchor, 0.7, 0.5)
	var soft := six_dof_box(Vector3(0, 6, 0), anchor, 0.25, 0.1)
	var rigid_spin := six_dof_box(Vector3(4, 3, 0), anchor, 0.7, 0.5)
	var soft_spin := six_dof_box(Vector3(4, 6, 0), anchor, 0.25, 0.1)
	await ticks(2)
	rigid.linear_velocity = Vector3(2, 0, 0)
	soft.linear_velocity = Vector3(2, 0, 0)
	rigid_spin.angular_velocity = Vector3(0, 0, 2)
	soft_spin.angular_velocity = Vector3(0, 0, 2)
	var far := {"rigid": -INF, "soft": -INF, "rigid_a": -INF, "soft_a": -INF}
	for t in 40:
		await ticks(1)
		far.rigid = maxf(far.rigid, rigid.global_position.x)
		far.soft = maxf(far.soft, soft.global_position.x)
		var xr := rigid_spin.global_transform.basis.x
		var xs := soft_spin.global_transform.basis.x
		far.rigid_a = maxf(far.rigid_a, atan2(xr.y, xr.x))
		far.soft_a = maxf(far.soft_a, atan2(xs.y, xs.x))
	values = {"rigid_far": far.rigid, "soft_far": far.soft,
		"rigid_angle": far.rigid_a, "soft_angle": far.soft_a,
		"soft_x_end": soft.global_position.x}


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	if m.is_empty():
		return out
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty():
			continue
		for p in [near("furthest x at the rigid limit vs " + e, m.rigid_far, r.rigid_far, 0.04),
				near("widest angle at the rigid limit vs " + e, m.rigid_angle, r.rigid_angle, 0.06)]:
			if p != "":
				out.append(p)
	for p in [near("furthest x at the limit", m.rigid_far, 0.5, 0.02),
			near("widest angle at the limit", m.rigid_angle, 0.5, 0.04)]:
		if p != "":
			out.append(p)
	if m.soft_far < m.rigid_far + 0.03:
		out.append("the soft linear limit gives no more than the rigid one (%.3f vs %.3f m)"
				% [m.soft_far, m.rigid_far])
	if m.soft_angle < m.rigid_angle + 0.05:
		out.append("the soft angular limit gives no more than the rigid one (%.3f vs %.3f rad)"
				% [m.soft_angle, m.rigid_angle])
	if m.soft_x_end > 0.5 + 0.02:
		out.append("the soft limit does not push the box back (%.3f m at the end)" % m.soft_x_end)
	return out
