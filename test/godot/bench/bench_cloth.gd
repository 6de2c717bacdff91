extends Node3D
# The cloth bench of `cargo run --release -p maul3d-bench --bin cloth`, as a Godot scene,
# run by bench/godot-cloth.sh once per physics engine (Jolt Physics, Maul3D) so the same
# scene is timed on both: 16 SoftBody3D cloths of 32 × 32 points (2 m PlaneMeshes, total
# mass 1 kg each, Godot's default stiffness 0.5 and precision 5) dropped from 0.8 m above
# a sphere each (radius 0.5) on a floor, in a 4-wide grid 3 m apart. Timed: wall time per
# tick (headless, --fixed-fps 60: ticks run back to back, soft bodies' mesh updates
# included) over the fall and drape (ticks 1–90) and over the 300 ticks after. Prints one
# `bench_cloth ENGINE: ...` line, how many cloths sleep at the end and where the cloths
# came to rest, then quits.
# Wall-clock figures to read, not to assert: not part of the test command.

const S := preload("res://soft_bodies.gd")


func _ready() -> void:
	var cloths := int(OS.get_environment("MAUL3D_BENCH_CLOTHS")) if OS.get_environment("MAUL3D_BENCH_CLOTHS") != "" else 16
	var floor_body := StaticBody3D.new()
	var fs := CollisionShape3D.new()
	var fb := BoxShape3D.new()
	fb.size = Vector3(100, 2, 100)
	fs.shape = fb
	floor_body.add_child(fs)
	floor_body.position = Vector3(0, -1, 0)
	add_child(floor_body)
	var bodies: Array[SoftBody3D] = []
	var centres: Array[Vector3] = []
	for k in cloths:
		var at := Vector3((k % 4) * 3.0, 1.0, (k / 4) * 3.0)
		var sphere := StaticBody3D.new()
		var cs := CollisionShape3D.new()
		var sh := SphereShape3D.new()
		sh.radius = 0.5
		cs.shape = sh
		sphere.add_child(cs)
		sphere.position = at
		add_child(sphere)
		var sb := S.cloth(2.0, 31, at + Vector3(0, 0.8, 0))
		sb.total_mass = 1.0
		add_child(sb)
		bodies.append(sb)
		centres.append(at)
	# The fall and drape (ticks 1–90: every cloth moving), then 300 ticks after it
	# (Jolt lets soft bodies that come to rest sleep; Maul3D's never sleep).
	var moving_ms := await _timed(90)
	var later_ms := await _timed(300)
	var sleeping := 0
	for sb in bodies:
		if PhysicsServer3D.soft_body_get_state(sb.get_physics_rid(), PhysicsServer3D.BODY_STATE_SLEEPING):
			sleeping += 1
	var lowest := INF
	var closest := INF
	for k in bodies.size():
		for p in S.points(bodies[k]):
			lowest = minf(lowest, p.y)
			closest = minf(closest, p.distance_to(centres[k]))
	print("bench_cloth %s: cloths=%d points=%d falling=%.3f ms/tick after=%.3f ms/tick sleeping_at_end=%d lowest=%.3f m closest_to_sphere_centre=%.4f m" % [
		ProjectSettings.get_setting("physics/3d/physics_engine"), cloths, cloths * 32 * 32,
		moving_ms, later_ms, sleeping, lowest, closest])
	get_tree().quit(0)


## Wall time per tick over the next `ticks` ticks, in ms (headless with --fixed-fps 60,
## ticks run back to back, so this is the whole frame: mostly the physics step).
func _timed(ticks: int) -> float:
	var start := Time.get_ticks_usec()
	for i in ticks:
		await get_tree().physics_frame
	return (Time.get_ticks_usec() - start) / 1000.0 / ticks
