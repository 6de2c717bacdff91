extends Node3D
# More scenes for test/godot/bench.sh, chosen by MAUL3D_BENCH_SCENE, under whichever
# physics engine the project runs. Each prints one `BENCH` line and quits.
#
# - contacts: Box3D's "Contacts"-style benchmark: 300 boxes, 300 spheres and 300 convex
#   hulls (each its own shape resource) dropped into an open box 12 m square; 600 ticks,
#   ms/tick, and how many ended inside the box.
# - islands: 4,000 boxes in 800 piles of five on one floor (many small islands, sleep on,
#   as a game leaves it); 600 ticks, ms/tick, and the piles still standing.
# - create: creation cost as more bodies exist: 8,000 boxes (a body and its own BoxShape3D
#   each) added one by one, ms per body over 0-1k, 1k-4k and 4k-8k, then the first tick.
# - capacity: 500 boxes in 100 piles of five, sleep off, 600 ticks, ms/tick: bench.sh runs
#   it under Maul3D with the default `physics/maul3d/*` capacities and with 16x them.

const TICKS := 600

var bodies: Array[RigidBody3D] = []
var starts: Array[Vector3] = []


func _ready() -> void:
	var scene := OS.get_environment("MAUL3D_BENCH_SCENE")
	match scene:
		"contacts":
			await _contacts()
		"islands":
			await _islands()
		"create":
			await _create()
		"capacity":
			await _capacity()
		_:
			print("BENCH | unknown scene '%s'" % scene)
	get_tree().quit()


func _label() -> String:
	var engine: String = OS.get_environment("MAUL3D_BENCH_LABEL")
	if engine == "":
		engine = ProjectSettings.get_setting("physics/3d/physics_engine")
	return engine


func _static_box(size: Vector3, pos: Vector3) -> void:
	var b := StaticBody3D.new()
	var cs := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = size
	cs.shape = box
	b.add_child(cs)
	b.position = pos
	add_child(b)


func _rigid(shape: Shape3D, pos: Vector3, can_sleep: bool) -> RigidBody3D:
	var b := RigidBody3D.new()
	var cs := CollisionShape3D.new()
	cs.shape = shape
	b.add_child(cs)
	b.position = pos
	b.can_sleep = can_sleep
	add_child(b)
	bodies.append(b)
	starts.append(pos)
	return b


func _box_shape(size: float) -> BoxShape3D:
	var box := BoxShape3D.new()
	box.size = Vector3.ONE * size
	return box


func _ms_per_tick(ticks: int) -> float:
	await get_tree().physics_frame
	var t0 := Time.get_ticks_usec()
	for t in ticks:
		await get_tree().physics_frame
	return (Time.get_ticks_usec() - t0) / 1000.0 / ticks


func _contacts() -> void:
	_static_box(Vector3(40, 1, 40), Vector3(0, -0.5, 0))
	for side in [Vector3(6.5, 4, 0), Vector3(-6.5, 4, 0)]:
		_static_box(Vector3(1, 8, 14), side)
	for side in [Vector3(0, 4, 6.5), Vector3(0, 4, -6.5)]:
		_static_box(Vector3(14, 8, 1), side)
	var rng := RandomNumberGenerator.new()
	rng.seed = 14
	var n := 0
	for kind in 3:
		for i in 300:
			var pos := Vector3(-5 + (n % 10) * 1.1, 1 + (n / 100) * 1.1, -5 + ((n / 10) % 10) * 1.1)
			var shape: Shape3D
			match kind:
				0:
					shape = _box_shape(0.8)
				1:
					var s := SphereShape3D.new()
					s.radius = 0.4
					shape = s
				_:
					var c := ConvexPolygonShape3D.new()
					var pts := PackedVector3Array()
					for k in 12:
						pts.append(Vector3(rng.randf_range(-0.4, 0.4), rng.randf_range(-0.4, 0.4), rng.randf_range(-0.4, 0.4)))
					c.points = pts
					shape = c
			_rigid(shape, pos, true)
			n += 1
	var ms: float = await _ms_per_tick(TICKS)
	var inside := 0
	for b in bodies:
		var p := b.position
		if absf(p.x) < 6 and absf(p.z) < 6 and p.y > -0.1 and p.y < 12:
			inside += 1
	print("BENCH | contacts | %-16s | %7.3f ms/tick | %d bodies (300 boxes, 300 spheres, 300 hulls) | %d inside the box" % [
		_label(), ms, bodies.size(), inside])


func _islands() -> void:
	_static_box(Vector3(200, 1, 200), Vector3(0, -0.5, 0))
	var shape := _box_shape(1.0)
	for pile in 800:
		var x := -80 + (pile % 40) * 4.0
		var z := -40 + (pile / 40) * 4.0
		for level in 5:
			_rigid(shape, Vector3(x, 0.5 + level, z), true)
	var ms: float = await _ms_per_tick(TICKS)
	var standing := 0
	for pile in 800:
		var worst := 0.0
		for level in 5:
			var i := pile * 5 + level
			worst = maxf(worst, bodies[i].position.distance_to(starts[i]))
		if worst < 0.1:
			standing += 1
	print("BENCH | islands  | %-16s | %7.3f ms/tick | %d bodies in 800 piles of 5 | %d piles stand" % [
		_label(), ms, bodies.size(), standing])


func _create() -> void:
	_static_box(Vector3(400, 1, 400), Vector3(0, -0.5, 0))
	var marks := [1000, 4000, 8000]
	var from := 0
	var t0 := Time.get_ticks_usec()
	var line := ""
	for i in 8000:
		var pile := i / 5
		_rigid(_box_shape(1.0), Vector3(-80 + (pile % 40) * 4.0, 0.5 + i % 5, -80 + (pile / 40) * 4.0), true)
		if (i + 1) in marks:
			var t1 := Time.get_ticks_usec()
			line += " | %d-%d: %.4f ms/body" % [from, i + 1, (t1 - t0) / 1000.0 / (i + 1 - from)]
			from = i + 1
			t0 = t1
	var t := Time.get_ticks_usec()
	await get_tree().physics_frame
	await get_tree().physics_frame
	line += " | first ticks %.1f ms" % ((Time.get_ticks_usec() - t) / 1000.0)
	print("BENCH | create   | %-16s%s" % [_label(), line])


func _capacity() -> void:
	_static_box(Vector3(100, 1, 100), Vector3(0, -0.5, 0))
	var shape := _box_shape(1.0)
	for pile in 100:
		for level in 5:
			_rigid(shape, Vector3(-20 + (pile % 10) * 4.0, 0.5 + level, -20 + (pile / 10) * 4.0), false)
	var ms: float = await _ms_per_tick(TICKS)
	print("BENCH | capacity | %-16s | %7.3f ms/tick | 500 boxes, sleep off | body_capacity %s" % [
		_label(), ms, str(ProjectSettings.get_setting("physics/maul3d/body_capacity", "n/a"))])
