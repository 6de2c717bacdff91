extends "res://compare_case.gd"
# A flat ConvexPolygonShape3D floor (a 5 × 5 grid of coplanar points, as an importer gives
# for a subdivided quad): a 1 m box dropped from 2 m rests on it at the same height, landing
# at the same tick, under every engine.


func run() -> void:
	var floor := StaticBody3D.new()
	var cs := CollisionShape3D.new()
	var shape := ConvexPolygonShape3D.new()
	var pts := PackedVector3Array()
	for i in 5:
		for k in 5:
			pts.append(Vector3((i - 2) * 2.5, 0, (k - 2) * 2.5))
	shape.points = pts
	cs.shape = shape
	floor.add_child(cs)
	add_child(floor)
	var box := rigid_box(Vector3(0.5, 0.5, 0.5), Vector3(0.3, 2, -0.2))
	var landed := -1
	for t in 180:
		await ticks(1)
		if landed < 0 and box.global_position.y < 0.6:
			landed = t
	values = {"rest_y": box.global_position.y, "landed_tick": landed}


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
