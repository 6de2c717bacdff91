extends "res://test_case.gd"

var entered := 0
var exited := 0


func test_area_3d_reports_a_falling_body_entering_and_leaving_once_each() -> void:
	var floor_body := StaticBody3D.new()
	var floor_shape := CollisionShape3D.new()
	var floor_box := BoxShape3D.new()
	floor_box.size = Vector3(20, 1, 20)
	floor_shape.shape = floor_box
	floor_body.add_child(floor_shape)
	floor_body.position = Vector3(0, -0.5, 0)
	add_child(floor_body)

	var area := Area3D.new()
	var area_shape := CollisionShape3D.new()
	var area_box := BoxShape3D.new()
	area_box.size = Vector3(4, 1, 4)
	area_shape.shape = area_box
	area.add_child(area_shape)
	area.position = Vector3(0, 3, 0)
	add_child(area)
	area.body_entered.connect(func(_b): entered += 1)
	area.body_exited.connect(func(_b): exited += 1)

	var ball := RigidBody3D.new()
	var ball_shape := CollisionShape3D.new()
	var sphere := SphereShape3D.new()
	sphere.radius = 0.25
	ball_shape.shape = sphere
	ball.add_child(ball_shape)
	ball.position = Vector3(0, 6, 0)
	add_child(ball)

	await ticks(180)
	check(entered == 1, "body_entered once (%d)" % entered)
	check(exited == 1, "body_exited once (%d)" % exited)
	check(absf(ball.position.y - 0.25) < 0.05, "the ball passed through the area to the floor (y = %f)" % ball.position.y)
	check(area.get_overlapping_bodies().is_empty(), "nothing overlaps the area at the end")


func test_area_3d_gravity_override_holds_a_body_up() -> void:
	var area := Area3D.new()
	var area_shape := CollisionShape3D.new()
	var area_box := BoxShape3D.new()
	area_box.size = Vector3(10, 10, 10)
	area_shape.shape = area_box
	area.add_child(area_shape)
	area.gravity_space_override = Area3D.SPACE_OVERRIDE_REPLACE
	area.gravity = 9.8
	area.gravity_direction = Vector3.UP
	add_child(area)
	var ball := RigidBody3D.new()
	var ball_shape := CollisionShape3D.new()
	var sphere := SphereShape3D.new()
	sphere.radius = 0.25
	ball_shape.shape = sphere
	ball.add_child(ball_shape)
	ball.linear_damp_mode = RigidBody3D.DAMP_MODE_REPLACE
	ball.linear_damp = 0.0
	add_child(ball)
	await ticks(31)
	# Inside the area gravity points up: after ~0.5 s the ball moves up at about 4.9 m/s
	# (one tick late: areas act on what they overlapped at the end of the last step).
	check(ball.linear_velocity.y > 4.0 and ball.linear_velocity.y < 5.2,
		"the ball rises at about 4.9 m/s (%f)" % ball.linear_velocity.y)


var areas_entered := 0
var areas_exited := 0


func test_area_3d_reports_another_area_passing_through_once_each_way() -> void:
	var watcher := Area3D.new()
	var ws := CollisionShape3D.new()
	var wb := BoxShape3D.new()
	wb.size = Vector3(2, 2, 2)
	ws.shape = wb
	watcher.add_child(ws)
	add_child(watcher)
	watcher.area_entered.connect(func(_a): areas_entered += 1)
	watcher.area_exited.connect(func(_a): areas_exited += 1)
	var mover := Area3D.new()
	var ms := CollisionShape3D.new()
	var sphere := SphereShape3D.new()
	sphere.radius = 0.3
	ms.shape = sphere
	mover.add_child(ms)
	mover.position = Vector3(-4, 0, 0)
	add_child(mover)
	for i in 80:
		await get_tree().physics_frame
		mover.position.x += 0.1
	await ticks(3)
	check(areas_entered == 1, "area_entered once (%d)" % areas_entered)
	check(areas_exited == 1, "area_exited once (%d)" % areas_exited)


func _area(shape: Shape3D, at: Vector3) -> Area3D:
	var a := Area3D.new()
	var cs := CollisionShape3D.new()
	cs.shape = shape
	a.add_child(cs)
	a.position = at
	add_child(a)
	return a


func test_area_3d_sees_areas_by_monitorable_and_its_own_mask_only() -> void:
	var box := BoxShape3D.new()
	box.size = Vector3(2, 2, 2)
	var watcher := _area(box, Vector3.ZERO)
	var seen := {}
	watcher.area_entered.connect(func(a): seen[a] = seen.get(a, 0) + 1)
	watcher.area_exited.connect(func(a): seen[a] = seen.get(a, 0) - 10)
	var ball := SphereShape3D.new()
	ball.radius = 0.3
	# Not monitorable: never seen.
	var hidden := _area(ball, Vector3(0.5, 0, 0))
	hidden.monitorable = false
	# Its layer (2) not in the watcher's mask (1), though its mask sees the watcher: the
	# rule is one way.
	var other_layer := _area(ball, Vector3(-0.5, 0, 0))
	other_layer.collision_layer = 2
	other_layer.collision_mask = 1
	# Seen, then made unmonitorable while inside: it exits.
	var plain := _area(ball, Vector3(0, 0.5, 0))
	await ticks(5)
	check(not seen.has(hidden), "an unmonitorable area is not reported")
	check(not seen.has(other_layer), "an area on a layer the mask does not see is not reported")
	check(seen.get(plain, 0) == 1, "a monitorable area inside is reported once (%s)" % str(seen.get(plain)))
	plain.monitorable = false
	await ticks(3)
	check(seen.get(plain, 0) == -9, "made unmonitorable, it exits once (%s)" % str(seen.get(plain)))


func test_a_convex_polygon_area_reports_an_area_inside_it() -> void:
	var hull := ConvexPolygonShape3D.new()
	hull.points = PackedVector3Array([
		Vector3(-1, -1, -1), Vector3(1, -1, -1), Vector3(1, 1, -1), Vector3(-1, 1, -1),
		Vector3(-1, -1, 1), Vector3(1, -1, 1), Vector3(1, 1, 1), Vector3(-1, 1, 1)])
	var watcher := _area(hull, Vector3.ZERO)
	var entered := [0]
	watcher.area_entered.connect(func(_a): entered[0] += 1)
	var ball := SphereShape3D.new()
	ball.radius = 0.3
	_area(ball, Vector3(0.2, 0, 0))
	await ticks(5)
	check(entered[0] == 1, "the convex polygon area saw the ball area enter once (%d)" % entered[0])
