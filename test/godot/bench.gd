extends Node3D
# The same scene under whichever physics engine the project runs (test/godot/bench.sh
# runs it under Godot Physics, Jolt Physics and Maul3D): a 20-level pyramid of 210 boxes
# and a 10-box tower on a floor. Steps 600 ticks as fast as the engine goes
# (--fixed-fps 60), then prints one line: engine, milliseconds per tick (wall time of the
# whole tick, sleep off so every tick solves every box), and whether the pyramid and the
# tower still stand (no box moved 0.1 m from where it started).

const LEVELS := 20
const TICKS := 600

var boxes: Array[RigidBody3D] = []
var starts: Array[Vector3] = []
var tower_from := 0


func _ready() -> void:
	var floor_body := StaticBody3D.new()
	_add_box_shape(floor_body, Vector3(40, 1, 40))
	floor_body.position = Vector3(0, -0.5, 0)
	add_child(floor_body)
	for row in LEVELS:
		for i in LEVELS - row:
			_add_rigid(Vector3((i - (LEVELS - row - 1) * 0.5) * 1.05, 0.5 + row, 0))
	tower_from = boxes.size()
	for k in 10:
		_add_rigid(Vector3(0, 0.5 + k, 8))
	await get_tree().physics_frame
	var t0 := Time.get_ticks_usec()
	for t in TICKS:
		await get_tree().physics_frame
	var ms := (Time.get_ticks_usec() - t0) / 1000.0 / TICKS
	var pyramid := _worst(0, tower_from)
	var tower := _worst(tower_from, boxes.size())
	var engine: String = OS.get_environment("MAUL3D_BENCH_LABEL")
	if engine == "":
		engine = ProjectSettings.get_setting("physics/3d/physics_engine")
	print("BENCH | %-16s | %7.3f ms/tick | pyramid (210) %-9s (worst drift %.3f m) | tower (10) %-9s (worst drift %.3f m)" % [
		engine, ms, "stands" if pyramid < 0.1 else "collapsed", pyramid,
		"stands" if tower < 0.1 else "collapsed", tower])
	get_tree().quit()


func _add_box_shape(body: PhysicsBody3D, size: Vector3) -> void:
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = size
	shape.shape = box
	body.add_child(shape)


func _add_rigid(pos: Vector3) -> void:
	var b := RigidBody3D.new()
	_add_box_shape(b, Vector3.ONE)
	b.position = pos
	b.can_sleep = false  # every tick solves the whole stack
	add_child(b)
	boxes.append(b)
	starts.append(pos)


func _worst(from: int, to: int) -> float:
	var worst := 0.0
	for i in range(from, to):
		worst = maxf(worst, boxes[i].position.distance_to(starts[i]))
	return worst
