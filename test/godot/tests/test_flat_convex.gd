extends "res://test_case.gd"
# A flat ConvexPolygonShape3D (all points on one plane: an imported quad or floor tile)
# is a thin convex, as under Godot Physics and Jolt: boxes rest on it and a flat body
# lands and lies on a floor. Maul3D thickens it by a fraction of a millimetre to a few
# millimetres on each side (README "Flat convex hulls").


## Collects the errors Godot logs while it is registered.
class ErrorLog extends Logger:
	var lines := PackedStringArray()
	var lock := Mutex.new()

	func _log_error(_function: String, _file: String, _line: int, code: String,
			rationale: String, _editor_notify: bool, _error_type: int,
			_script_backtraces: Array[ScriptBacktrace]) -> void:
		lock.lock()
		lines.append(code + " " + rationale)
		lock.unlock()


## A grid of `n` × `n` coplanar points spanning `size` × `size` on the plane y = 0, as a
## mesh importer gives for a subdivided quad.
func flat_grid(size: float, n: int) -> PackedVector3Array:
	var pts := PackedVector3Array()
	for i in n:
		for k in n:
			var u := (float(i) / float(n - 1) - 0.5) * size
			var w := (float(k) / float(n - 1) - 0.5) * size
			pts.append(Vector3(u, 0, w))
	return pts


func flat_convex(points: PackedVector3Array) -> CollisionShape3D:
	var cs := CollisionShape3D.new()
	var shape := ConvexPolygonShape3D.new()
	shape.points = points
	cs.shape = shape
	return cs


func test_a_box_rests_on_a_flat_convex_polygon_floor_with_no_error() -> void:
	var log := ErrorLog.new()
	OS.add_logger(log)
	var floor := StaticBody3D.new()
	floor.add_child(flat_convex(flat_grid(10.0, 5)))
	add_child(floor)
	var body := RigidBody3D.new()
	var cs := CollisionShape3D.new()
	cs.shape = BoxShape3D.new()
	body.add_child(cs)
	body.position = Vector3(0.3, 2, -0.2)
	add_child(body)
	await ticks(180)
	OS.remove_logger(log)
	check(log.lines.is_empty(), "no error is printed for the flat convex (%s)" % [log.lines])
	check(absf(body.position.y - 0.5) < 0.01,
		"the box rests on the flat convex at y = 0.5 (y = %f)" % body.position.y)
	check(body.linear_velocity.length() < 0.01,
		"the box is still (|v| = %f)" % body.linear_velocity.length())


func test_a_box_rests_on_a_tilted_flat_convex_triangle() -> void:
	# Three points (always coplanar) rotated 20° about x: the box rests on the slope, its
	# centre half its size above the plane.
	var floor := StaticBody3D.new()
	floor.add_child(flat_convex(PackedVector3Array([
		Vector3(-6, 0, -6), Vector3(6, 0, -6), Vector3(0, 0, 8)])))
	var tilt := Basis(Vector3.RIGHT, deg_to_rad(20.0))
	floor.transform = Transform3D(tilt, Vector3.ZERO)
	add_child(floor)
	var body := RigidBody3D.new()
	var cs := CollisionShape3D.new()
	cs.shape = BoxShape3D.new()
	body.add_child(cs)
	body.transform = Transform3D(tilt, tilt.y * 1.0)
	var material := PhysicsMaterial.new()
	material.friction = 1.0
	body.physics_material_override = material
	add_child(body)
	await ticks(120)
	var height := body.position.dot(tilt.y)
	check(absf(height - 0.5) < 0.01,
		"the box rests half its size above the tilted flat triangle (%f)" % height)


func test_a_flat_convex_rigid_body_lands_flat_on_a_floor() -> void:
	var ground := StaticBody3D.new()
	var gs := CollisionShape3D.new()
	var gbox := BoxShape3D.new()
	gbox.size = Vector3(20, 1, 20)
	gs.shape = gbox
	ground.add_child(gs)
	ground.position = Vector3(0, -0.5, 0)
	add_child(ground)
	var tile := RigidBody3D.new()
	tile.add_child(flat_convex(flat_grid(1.0, 3)))
	tile.transform = Transform3D(Basis(Vector3(1, 0, 1).normalized(), deg_to_rad(15.0)),
		Vector3(0, 1.5, 0))
	add_child(tile)
	await ticks(240)
	check(absf(tile.position.y) < 0.01,
		"the flat tile lies on the floor at y = 0 (y = %f)" % tile.position.y)
	check(tile.transform.basis.y.dot(Vector3.UP) > 0.999,
		"it lies flat (normal·up = %f)" % tile.transform.basis.y.dot(Vector3.UP))
	check(tile.linear_velocity.length() < 0.01,
		"it is still (|v| = %f)" % tile.linear_velocity.length())
