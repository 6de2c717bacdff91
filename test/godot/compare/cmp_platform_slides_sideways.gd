extends "res://compare/platform_case.gd"
# A character standing on a platform that slides 2 m either way along x (a 2 s sine,
# up to 6.3 m/s) rides it: it stays where it stood on the platform and on the floor every
# tick, as under Godot Physics and Jolt (before Maul3D reported the platform's velocity
# it stayed behind and fell off the edge).


func platform_at(tick: int) -> Transform3D:
	return Transform3D(Basis.IDENTITY, Vector3(2.0 * sin(TAU * tick / 120.0), 1.0, 0.0))


func run() -> void:
	await ride()
	values = ride_values()


func judge(by: Dictionary) -> PackedStringArray:
	return judge_ride(by, 0.05, 3)
