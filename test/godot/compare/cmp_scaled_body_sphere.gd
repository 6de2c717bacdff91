extends "res://compare/scaled_case.gd"
# A StaticBody3D scaled ×10 whose sphere shape has radius 1: a sphere of radius 10 at the
# origin. A 1 m box dropped onto its top rests there at y = 10.5 (stable: the box's
# centre is 0.5 m above the contact, under the sphere's radius).


func run() -> void:
	var sphere := SphereShape3D.new()
	sphere.radius = 1.0
	scaled_static(sphere, Vector3(10, 10, 10))
	values = await drop_box(Vector3(0, 12.5, 0), 10.0)


func judge(by: Dictionary) -> PackedStringArray:
	return judge_rest(by, ["GodotPhysics3D", "Jolt Physics"])
