extends "res://compare_case.gd"
# The seed case of the comparison pass: a 1 m box dropped from 2 m onto a floor comes to
# rest on it, at the same height and in about the same time on every engine.


func run() -> void:
	static_box(Vector3(10, 0.5, 10), Vector3(0, -0.5, 0))
	var box := rigid_box(Vector3(0.5, 0.5, 0.5), Vector3(0, 2, 0))
	var landed := -1
	for t in 180:
		await ticks(1)
		if landed < 0 and box.global_position.y < 0.6:
			landed = t
	values = {"rest_y": box.global_position.y, "landed_tick": landed, "sleeping": box.sleeping}


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty() or m.is_empty():
			continue
		for p in [near("rest height vs " + e, m.rest_y, r.rest_y, 0.02),
				near("landing tick vs " + e, m.landed_tick, r.landed_tick, 3)]:
			if p != "":
				out.append(p)
	return out
