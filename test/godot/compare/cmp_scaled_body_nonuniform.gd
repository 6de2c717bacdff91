extends "res://compare/scaled_case.gd"
# A StaticBody3D turned 30° about y and scaled (10, 0.5, 4) over a 2 m cube: a
# 20 × 1 × 8 slab, top at y = 0.5, long along the body's turned x axis. A 1 m box dropped
# 7 m out along that axis (beyond the unscaled cube and beyond the slab's width) rests on
# it at y = 1.


func run() -> void:
	var box := BoxShape3D.new()
	box.size = Vector3(2, 2, 2)
	var turn := Basis(Vector3.UP, deg_to_rad(30.0))
	scaled_static(box, Vector3(10, 0.5, 4), Vector3.ZERO, turn)
	values = await drop_box(turn * Vector3(7, 0, 0) + Vector3(0, 2.5, 0), 0.5)


func judge(by: Dictionary) -> PackedStringArray:
	return judge_rest(by, ["GodotPhysics3D", "Jolt Physics"])
