extends "res://compare/scaled_case.gd"
# A StaticBody3D scaled ×10 whose box shape is 2 × 0.1 × 2: the floor is 20 × 1 × 20, top
# at y = 0.5. A 1 m box dropped at x = 6 (outside the unscaled box) rests on it at y = 1.


func run() -> void:
	scaled_static(thin_box(), Vector3(10, 10, 10))
	values = await drop_box(Vector3(6, 2.5, 0), 0.5)


func judge(by: Dictionary) -> PackedStringArray:
	return judge_rest(by, ["GodotPhysics3D", "Jolt Physics"])
