extends "res://test_case.gd"
# CharacterBody3D.move_and_slide on Maul3D's body_test_motion: floors, walls, slopes,
# jumps. A capsule of radius 0.4 and height 1.8 stands with its centre at y = 0.9.

const GRAVITY := 9.8


func add_static_box(pos: Vector3, half: Vector3, rot := Vector3.ZERO) -> StaticBody3D:
	var body := StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = half * 2.0
	shape.shape = box
	body.add_child(shape)
	body.position = pos
	body.rotation = rot
	add_child(body)
	return body


func add_character(pos: Vector3) -> CharacterBody3D:
	var c := CharacterBody3D.new()
	var shape := CollisionShape3D.new()
	var capsule := CapsuleShape3D.new()
	capsule.radius = 0.4
	capsule.height = 1.8
	shape.shape = capsule
	c.add_child(shape)
	c.position = pos
	add_child(c)
	return c


## Moves the character for `n` ticks at horizontal velocity `v`, with gravity.
func walk(c: CharacterBody3D, v: Vector3, n: int) -> void:
	for i in n:
		await get_tree().physics_frame
		var vy := c.velocity.y - GRAVITY / 60.0
		if c.is_on_floor() and vy < 0.0:
			vy = 0.0
		c.velocity = Vector3(v.x, vy, v.z)
		c.move_and_slide()


func test_a_character_walks_across_a_floor() -> void:
	add_static_box(Vector3(0, -0.5, 0), Vector3(20, 0.5, 20))
	var c := add_character(Vector3(0, 0.92, 0))
	await walk(c, Vector3(3, 0, 0), 60)
	check(c.is_on_floor(), "it is on the floor")
	check(absf(c.position.y - 0.9) < 0.05, "standing at y = 0.9 (y = %f)" % c.position.y)
	check(absf(c.position.x - 3.0) < 0.15, "1 s at 3 m/s takes it 3 m (x = %f)" % c.position.x)
	check(absf(c.position.z) < 0.01, "straight along x (z = %f)" % c.position.z)


func test_a_character_stops_at_a_wall() -> void:
	add_static_box(Vector3(0, -0.5, 0), Vector3(20, 0.5, 20))
	add_static_box(Vector3(3.5, 1.5, 0), Vector3(0.5, 1.5, 5))  # face at x = 3
	var c := add_character(Vector3(0, 0.92, 0))
	var touched_wall := false
	for i in 120:
		await walk(c, Vector3(3, 0, 0), 1)
		touched_wall = touched_wall or c.is_on_wall()
	check(touched_wall, "it reports the wall")
	check(c.position.x < 3.0 - 0.39 and c.position.x > 3.0 - 0.45,
		"it stops with its radius 0.4 short of the wall face at x = 3 (x = %f)" % c.position.x)
	check(c.is_on_floor(), "still on the floor")


func test_a_character_walks_up_a_slope() -> void:
	add_static_box(Vector3(0, -0.5, 0), Vector3(20, 0.5, 20))
	# A 20-degree ramp rising along +x, its top face passing through (4, 0, 0).
	var angle := deg_to_rad(20.0)
	var up := Vector3(-sin(angle), cos(angle), 0)
	add_static_box(Vector3(4, 0, 0) - up * 0.5 + Vector3(cos(angle), sin(angle), 0) * 4.0,
		Vector3(4, 0.5, 3), Vector3(0, 0, angle))
	var c := add_character(Vector3(0, 0.92, 0))
	await walk(c, Vector3(3, 0, 0), 150)
	var ground := (c.position.x - 4.0) * tan(angle)
	check(c.position.x > 5.0, "it climbed onto the ramp (x = %f)" % c.position.x)
	check(c.position.y > 0.9 + 0.5, "it rose above the floor (y = %f)" % c.position.y)
	check(c.is_on_floor(), "a 20-degree ramp is a floor")
	check(c.position.y - ground < 1.4 and c.position.y - ground > 0.8,
		"it stands on the ramp surface (height above it %f)" % (c.position.y - ground))


func test_a_character_lands_from_a_jump() -> void:
	add_static_box(Vector3(0, -0.5, 0), Vector3(20, 0.5, 20))
	var c := add_character(Vector3(0, 0.92, 0))
	await walk(c, Vector3.ZERO, 10)
	check(c.is_on_floor(), "it starts on the floor")
	c.velocity.y = 5.0
	var peak := 0.0
	var left_floor := false
	for i in 90:
		await get_tree().physics_frame
		c.velocity.y -= GRAVITY / 60.0
		c.move_and_slide()
		peak = maxf(peak, c.position.y)
		left_floor = left_floor or not c.is_on_floor()
	check(left_floor, "it leaves the floor")
	# v²/2g = 25/19.6 ≈ 1.28 m above standing height (less a step of integration).
	check(absf(peak - 0.9 - 1.28) < 0.15, "it rises about 1.28 m (%f)" % (peak - 0.9))
	check(c.is_on_floor(), "it lands")
	check(absf(c.position.y - 0.9) < 0.05, "back at standing height (y = %f)" % c.position.y)


## A character whose only shape is a SeparationRayShape3D of `length` pointing down
## (the shape's +Z turned to -Y), dropped from `pos`.
func add_ray_character(pos: Vector3, length: float) -> CharacterBody3D:
	var c := CharacterBody3D.new()
	var shape := CollisionShape3D.new()
	var ray := SeparationRayShape3D.new()
	ray.length = length
	shape.shape = ray
	shape.rotation_degrees = Vector3(90, 0, 0)
	c.add_child(shape)
	c.position = pos
	add_child(c)
	return c


func test_a_character_on_a_separation_ray_of_length_1_stands_1_m_above_the_floor() -> void:
	add_static_box(Vector3(0, -0.5, 0), Vector3(20, 0.5, 20))
	var c := add_ray_character(Vector3(0, 1.5, 0), 1.0)
	await walk(c, Vector3.ZERO, 90)
	check(absf(c.position.y - 1.0) < 0.03, "it stands on the ray, 1 m above the floor (y = %f)" % c.position.y)
	check(c.is_on_floor(), "on the floor")
	await walk(c, Vector3(2, 0, 0), 30)
	check(absf(c.position.y - 1.0) < 0.03, "walking, still 1 m above the floor (y = %f)" % c.position.y)
	check(c.position.x > 0.8, "it walks (x = %f)" % c.position.x)


func test_a_motion_test_ignores_an_excluded_wall() -> void:
	add_static_box(Vector3(0, -0.5, 0), Vector3(20, 0.5, 20))
	var wall := add_static_box(Vector3(3.5, 1.5, 0), Vector3(0.5, 1.5, 5))  # face at x = 3
	var c := add_character(Vector3(0, 1.0, 0))
	await ticks(2)
	var params := PhysicsTestMotionParameters3D.new()
	params.from = c.global_transform
	params.motion = Vector3(5, 0, 0)
	var result := PhysicsTestMotionResult3D.new()
	var hit := PhysicsServer3D.body_test_motion(c.get_rid(), params, result)
	check(hit and result.get_collider_id() == wall.get_instance_id(), "the wall stops the motion")
	check(absf(result.get_travel().x - 2.6) < 0.05, "at the wall (travel %s)" % result.get_travel())
	params.exclude_bodies = [wall.get_rid()]
	hit = PhysicsServer3D.body_test_motion(c.get_rid(), params, result)
	check(not hit, "excluded by RID, the wall is not hit")
	check(absf(result.get_travel().x - 5.0) < 1e-3, "the whole motion is made (%s)" % result.get_travel())
	params.exclude_bodies = []
	params.exclude_objects = [wall.get_instance_id()]
	hit = PhysicsServer3D.body_test_motion(c.get_rid(), params, result)
	check(not hit, "excluded by object id, the wall is not hit")
