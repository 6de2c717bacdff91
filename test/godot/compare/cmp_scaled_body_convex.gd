extends "res://compare/scaled_case.gd"
# A StaticBody3D scaled ×10 whose convex polygon shape is the corners of a 2 × 0.1 × 2
# box: a 20 × 1 × 20 floor, top at y = 0.5, under a box dropped at x = 6.


func run() -> void:
	var convex := ConvexPolygonShape3D.new()
	var points := PackedVector3Array()
	for x in [-1.0, 1.0]:
		for y in [-0.05, 0.05]:
			for z in [-1.0, 1.0]:
				points.append(Vector3(x, y, z))
	convex.points = points
	scaled_static(convex, Vector3(10, 10, 10))
	values = await drop_box(Vector3(6, 2.5, 0), 0.5)


func judge(by: Dictionary) -> PackedStringArray:
	return judge_rest(by, ["GodotPhysics3D", "Jolt Physics"])
