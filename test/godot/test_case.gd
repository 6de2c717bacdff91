extends Node3D
# Base of every test script: records failed checks and helps build scenes.

var failures := PackedStringArray()


func check(cond: bool, message: String) -> void:
	if not cond:
		failures.append(message)


## Waits `n` physics ticks.
func ticks(n: int) -> void:
	for i in n:
		await get_tree().physics_frame


func space() -> RID:
	return get_world_3d().space
