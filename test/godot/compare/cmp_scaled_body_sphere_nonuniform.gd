extends "res://compare/scaled_case.gd"
# A StaticBody3D scaled (10, 4, 10) over a sphere of radius 1: a sphere cannot take a
# non-uniform scale. Maul3D makes it a sphere of the mean scale (radius 8, with a
# warning), as Jolt Physics does, so a box dropped on its top rests at y = 8.5.
#
# Judged against Jolt Physics only: Godot Physics scales a sphere by its transform's x
# axis in some shape pairs and by the full ellipsoid in others (its values are recorded
# for reference).


func run() -> void:
	var sphere := SphereShape3D.new()
	sphere.radius = 1.0
	scaled_static(sphere, Vector3(10, 4, 10))
	values = await drop_box(Vector3(0, 11.0, 0), 8.0)


func judge(by: Dictionary) -> PackedStringArray:
	return judge_rest(by, ["Jolt Physics"])
