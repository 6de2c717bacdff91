extends "res://compare_case.gd"
# Shared by the cmp_platform_*.gd cases: a CharacterBody3D (capsule) standing on an
# AnimatableBody3D platform that the case moves by script every physics tick (its
# `platform_at(tick)`), the character running the usual template (`gravity when not on
# the floor`, `move_and_slide`). A moving platform carries what stands on it when the
# server reports the platform's velocity: the velocity its scripted move implies (the
# direct body state's `linear_velocity`, the motion test's collider velocity).

const TICKS := 240
const GRAVITY := 9.8

## The platform's top, m above its origin (its box is 3 × 0.4 × 3 m).
const TOP := 0.2
## Where the character's feet start, relative to the platform's origin.
const FEET := Vector3(0.6, TOP, 0.0)

var platform: AnimatableBody3D
var character: CharacterBody3D
## Per tick after `move_and_slide`: the character's position in the platform's frame.
var track: Array[Vector3] = []
var on_floor := 0
var first_off := -1
## The platform's speed reported by its direct body state, m/s, sampled at tick 30.
var reported_speed := 0.0
## Its angular speed reported there, rad/s.
var reported_spin := 0.0
## The speed its scripted move implied over the last tick there.
var scripted_speed := 0.0


## The platform's transform at `tick` (tick 0: where it starts).
func platform_at(_tick: int) -> Transform3D:
	return Transform3D.IDENTITY


## Builds the platform and the character, runs TICKS ticks and records the track.
func ride() -> void:
	platform = AnimatableBody3D.new()
	platform.sync_to_physics = true
	var ps := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(3, 0.4, 3)
	ps.shape = box
	platform.add_child(ps)
	platform.transform = platform_at(0)
	add_child(platform)

	character = CharacterBody3D.new()
	var cs := CollisionShape3D.new()
	var capsule := CapsuleShape3D.new()
	capsule.radius = 0.4
	capsule.height = 1.8
	cs.shape = capsule
	character.add_child(cs)
	character.position = platform_at(0) * (FEET + Vector3(0, 0.9 + 0.01, 0))
	add_child(character)
	# Let it settle on the still platform.
	for t in 20:
		await ticks(1)
		_move_character()
	for t in range(1, TICKS + 1):
		await ticks(1)
		if t == 30:
			var state := PhysicsServer3D.body_get_direct_state(platform.get_rid())
			reported_speed = state.linear_velocity.length()
			reported_spin = state.angular_velocity.length()
			scripted_speed = (platform_at(t - 1).origin - platform_at(t - 2).origin).length() * 60.0
		platform.transform = platform_at(t)
		_move_character()
		if character.is_on_floor():
			on_floor += 1
		elif first_off < 0:
			first_off = t
		# The platform node shows the physics state of the last step (sync_to_physics).
		var rel := platform.global_transform.affine_inverse() * character.global_position
		track.append(rel)


func _move_character() -> void:
	if not character.is_on_floor():
		character.velocity.y -= GRAVITY / 60.0
	character.move_and_slide()


## The common values: ticks on the floor, the first tick off it, where the character
## ended in the platform's frame, how far it drifted there at most, the reported speed.
func ride_values() -> Dictionary:
	var start: Vector3 = track[0]
	var drift := 0.0
	for p in track:
		drift = maxf(drift, Vector2(p.x - start.x, p.z - start.z).length())
	var end: Vector3 = track[track.size() - 1]
	return {
		"on_floor": on_floor,
		"first_off": first_off,
		"end_x": end.x,
		"end_y": end.y,
		"end_z": end.z,
		"drift": drift,
		"reported_speed": reported_speed,
		"reported_spin": reported_spin,
		"scripted_speed": scripted_speed,
	}


## Maul3D against each other engine: ticks on the floor within `floor_tol`, the end in
## the platform's frame within `tol` m, the reported platform speed within 2 %.
func judge_ride(by: Dictionary, tol: float, floor_tol: int) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty() or m.is_empty():
			continue
		for p in [near("ticks on floor vs " + e, m.on_floor, r.on_floor, floor_tol),
				near("end x on the platform vs " + e, m.end_x, r.end_x, tol),
				near("end y on the platform vs " + e, m.end_y, r.end_y, tol),
				near("end z on the platform vs " + e, m.end_z, r.end_z, tol),
				near("largest drift on the platform vs " + e, m.drift, r.drift, tol),
				near("platform speed reported vs " + e, m.reported_speed, r.reported_speed,
					0.02 * maxf(r.reported_speed, 0.05)),
				near("platform spin reported vs " + e, m.reported_spin, r.reported_spin,
					0.02 * maxf(r.reported_spin, 0.05))]:
			if p != "":
				out.append(p)
	return out
