extends "res://compare/platform_case.gd"
# A character standing 0.6 m off the axis of a platform turning at 1.5 rad/s about y is
# carried round with it (the collider's velocity at the contact: linear + angular × r),
# staying near where it stood in the platform's frame, as under Godot Physics and Jolt.


func platform_at(tick: int) -> Transform3D:
	return Transform3D(Basis(Vector3.UP, 1.5 * tick / 60.0), Vector3(0.0, 1.0, 0.0))


func run() -> void:
	await ride()
	values = ride_values()


func judge(by: Dictionary) -> PackedStringArray:
	return judge_ride(by, 0.05, 3)
