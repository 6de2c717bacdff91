extends "res://compare_case.gd"
# Issue 14 item 8: compound bodies (one RigidBody3D, several CollisionShape3D children)
# dropped onto a floor come to rest and fall asleep, as a single box does: an L of two
# boxes and a table of five (a top on four legs).


func compound(parts: Array, at: Vector3) -> RigidBody3D:
	var b := RigidBody3D.new()
	for p in parts:
		var s := CollisionShape3D.new()
		var box := BoxShape3D.new()
		box.size = p[0] * 2.0
		s.shape = box
		s.position = p[1]
		b.add_child(s)
	b.position = at
	add_child(b)
	return b


func run() -> void:
	static_box(Vector3(10, 0.5, 10), Vector3(0, -0.5, 0))
	var l := compound([[Vector3(1.0, 0.25, 0.25), Vector3(0, -0.25, 0)],
			[Vector3(0.25, 0.75, 0.25), Vector3(-0.75, 0.75, 0)]], Vector3(-3, 0.6, 0))
	var table_parts := [[Vector3(1.0, 0.05, 0.6), Vector3.ZERO]]
	for xz in [Vector2(-0.9, -0.5), Vector2(0.9, -0.5), Vector2(-0.9, 0.5), Vector2(0.9, 0.5)]:
		table_parts.append([Vector3(0.05, 0.5, 0.05), Vector3(xz.x, -0.55, xz.y)])
	var table := compound(table_parts, Vector3(3, 1.15, 0))
	var late := {"l": 0.0, "table": 0.0}
	var slept := {"l": -1, "table": -1}
	for t in 300:
		await ticks(1)
		for k in ["l", "table"]:
			var b: RigidBody3D = l if k == "l" else table
			if t >= 240:
				late[k] = maxf(late[k], b.linear_velocity.length())
			if slept[k] < 0 and b.sleeping:
				slept[k] = t
	values = {
		"l_sleeping": l.sleeping, "table_sleeping": table.sleeping,
		"l_slept_tick": slept.l, "table_slept_tick": slept.table,
		"l_late_speed": late.l, "table_late_speed": late.table,
		"l_y": l.global_position.y, "table_y": table.global_position.y,
	}


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	if m.is_empty():
		return out
	for k in ["l", "table"]:
		if not m[k + "_sleeping"]:
			out.append("the %s is awake after 5 s (speed over the last second up to %.3f m/s)"
					% [k, m[k + "_late_speed"]])
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty():
			continue
		for k in ["l", "table"]:
			var p := near("%s rest height vs %s" % [k, e], m[k + "_y"], r[k + "_y"], 0.02)
			if p != "":
				out.append(p)
			if r[k + "_sleeping"] != m[k + "_sleeping"]:
				out.append("%s sleeping: %s vs %s under %s" % [k, m[k + "_sleeping"], r[k + "_sleeping"], e])
	return out
