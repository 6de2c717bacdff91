extends "res://compare/platform_case.gd"
# A character standing on a platform that rises and sinks 1 m (a 3 s sine, up to 2.1 m/s,
# slower to turn than gravity) rides it on the floor every tick, as under Godot Physics
# and Jolt.


func platform_at(tick: int) -> Transform3D:
	return Transform3D(Basis.IDENTITY, Vector3(0.0, 1.0 + sin(TAU * tick / 180.0), 0.0))


func run() -> void:
	await ride()
	values = ride_values()


func judge(by: Dictionary) -> PackedStringArray:
	return judge_ride(by, 0.05, 3)
