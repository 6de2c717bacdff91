extends "res://compare/scaled_case.gd"
# A StaticBody3D scaled ×10 whose concave polygon shape is a 2 × 2 square of two
# triangles at y = 0.05 facing up: a 20 × 20 surface at y = 0.5, under a box dropped at
# x = 6.


func run() -> void:
	var h := 0.05
	var a := Vector3(-1, h, -1)
	var b := Vector3(1, h, -1)
	var c := Vector3(1, h, 1)
	var d := Vector3(-1, h, 1)
	var concave := ConcavePolygonShape3D.new()
	# Clockwise seen from above: the faces look up.
	concave.set_faces(PackedVector3Array([a, b, c, a, c, d]))
	scaled_static(concave, Vector3(10, 10, 10))
	values = await drop_box(Vector3(6, 2.5, 0), 0.5)


func judge(by: Dictionary) -> PackedStringArray:
	return judge_rest(by, ["GodotPhysics3D", "Jolt Physics"])
