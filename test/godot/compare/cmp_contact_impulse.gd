extends "res://compare_case.gd"
# A 1 m box resting on a floor: the impulses its contacts report over a tick sum to
# m·g·dt (the floor holds its weight), as under Godot Physics and Jolt.


func run() -> void:
	static_box(Vector3(10, 0.5, 10), Vector3(0, -0.5, 0))
	var box := rigid_box(Vector3(0.5, 0.5, 0.5), Vector3(0, 0.52, 0))
	box.mass = 2.0
	box.contact_monitor = true
	box.max_contacts_reported = 8
	await ticks(90)
	var ds := PhysicsServer3D.body_get_direct_state(box.get_rid())
	var up := 0.0
	for i in ds.get_contact_count():
		up += ds.get_contact_impulse(i).y
	values = {
		"impulse_up": up,
		"weight_dt": box.mass * 9.8 / 60.0,
	}


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	if m.is_empty():
		return PackedStringArray(["no values from Maul3D"])
	var p := near("impulse sum vs m·g·dt", m.impulse_up, m.weight_dt, 0.03 * m.weight_dt)
	if p != "":
		out.append(p)
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty():
			continue
		p = near("impulse sum vs " + e, m.impulse_up, r.impulse_up, 0.05 * r.weight_dt)
		if p != "":
			out.append(p)
	return out
