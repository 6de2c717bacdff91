extends "res://test_case.gd"
# Maul3D's own nodes: Maul3DCharacterBody3D, Maul3DVehicleBody3D with
# Maul3DVehicleWheel3D children, Maul3DWaterVolume3D; their determinism (hash of the same
# scene twice, snapshot and restore). Godot's own CharacterBody3D on Maul3D's motion test
# is tests/test_character.gd's.


## A world of its own (its own Maul3D space).
func new_world() -> SubViewport:
	var vp := SubViewport.new()
	vp.world_3d = World3D.new()
	var _space := vp.world_3d.space
	add_child(vp)
	return vp


func static_box(parent: Node, pos: Vector3, half: Vector3) -> StaticBody3D:
	var body := StaticBody3D.new()
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = half * 2.0
	shape.shape = box
	body.add_child(shape)
	body.position = pos
	parent.add_child(body)
	return body


func character(parent: Node, pos: Vector3) -> Maul3DCharacterBody3D:
	var c := Maul3DCharacterBody3D.new()
	c.radius = 0.3
	c.height = 1.8
	c.position = pos
	parent.add_child(c)
	return c


## `n` ticks of walking at level velocity `v` with gravity (the vertical part kept in the
## air, dropped by move_and_slide on landing).
func walk(c: Maul3DCharacterBody3D, v: Vector3, n: int) -> void:
	for i in n:
		await get_tree().physics_frame
		c.velocity = Vector3(v.x, c.velocity.y - 9.8 / 60.0, v.z)
		c.move_and_slide()


func test_a_maul3d_character_walks_up_a_0_3_m_step_and_stays_on_the_floor() -> void:
	var w := new_world()
	static_box(w, Vector3(0, -0.5, 0), Vector3(20, 0.5, 20))
	static_box(w, Vector3(6, 0.15, 0), Vector3(3, 0.15, 3))  # a 0.3 m step, its face at x = 3
	var c := character(w, Vector3(0, 0.95, 0))
	check(c.has_character(), "entering the tree made its character")
	await walk(c, Vector3.ZERO, 30)
	check(c.is_on_floor(), "it stands on the floor (y = %f)" % c.position.y)
	check(absf(c.position.y - 0.9) < 0.05, "its centre 0.9 m up (y = %f)" % c.position.y)
	check(c.get_floor_normal().distance_to(Vector3.UP) < 1e-3, "floor normal up (%s)" % c.get_floor_normal())
	await walk(c, Vector3(2, 0, 0), 120)
	print("  character after the step: x %.3f y %.3f on_floor %s" % [c.position.x, c.position.y, c.is_on_floor()])
	check(c.position.x > 3.5, "it walked past the step's face at x = 3 (x = %f)" % c.position.x)
	check(absf(c.position.y - 1.2) < 0.05, "it stands on the step, 0.3 m higher (y = %f)" % c.position.y)
	check(c.is_on_floor(), "on the floor after the step")
	c.queue_free()
	await ticks(1)
	check(Maul3D.space_hash(w.world_3d.space) != 0, "the space is still there")


func test_a_maul3d_character_is_in_the_hash_and_comes_back_with_a_restore() -> void:
	var w := new_world()
	var s := w.world_3d.space
	static_box(w, Vector3(0, -0.5, 0), Vector3(20, 0.5, 20))
	var c := character(w, Vector3(0, 1.5, 0))
	await walk(c, Vector3.ZERO, 20)
	var snap := Maul3D.snapshot(s)
	var at := c.position
	var hashes := []
	for i in 30:
		await walk(c, Vector3(1.5, 0, 0.5), 1)
		hashes.append(Maul3D.space_hash(s))
	var moved_to := c.position
	check(Maul3D.restore(s, snap), "the snapshot restores")
	c.sync_from_space()
	check(c.position.distance_to(at) < 1e-4, "the node is back where the snapshot had it (%s vs %s)" % [c.position, at])
	var again := []
	for i in 30:
		await walk(c, Vector3(1.5, 0, 0.5), 1)
		again.append(Maul3D.space_hash(s))
	check(again == hashes, "stepping on gives the same 30 hashes (%d differ)" % _differ(hashes, again))
	check(c.position.distance_to(moved_to) < 1e-5, "and the same place (%s vs %s)" % [c.position, moved_to])
	check(Maul3D.space_hash(s) != 0, "a hash")


func _differ(a: Array, b: Array) -> int:
	var n := 0
	for i in mini(a.size(), b.size()):
		if a[i] != b[i]:
			n += 1
	return n + absi(a.size() - b.size())


func floating_box(parent: Node, pos: Vector3, half: Vector3, density: float) -> RigidBody3D:
	var body := RigidBody3D.new()
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = half * 2.0
	shape.shape = box
	body.add_child(shape)
	body.mass = density * 8.0 * half.x * half.y * half.z
	body.position = pos
	parent.add_child(body)
	return body


func water(parent: Node, surface: float) -> Maul3DWaterVolume3D:
	var wv := Maul3DWaterVolume3D.new()
	wv.size = Vector3(20, 4, 20)
	wv.position = Vector3(0, surface - 2.0, 0)
	wv.density = 1000.0
	wv.linear_damp = 2.0
	wv.angular_damp = 2.0
	parent.add_child(wv)
	return wv


func test_a_box_of_density_500_floats_half_under_in_a_water_volume() -> void:
	var w := new_world()
	var wv := water(w, 0.0)
	check(wv.has_water_volume(), "entering the tree made the water volume")
	var b := floating_box(w, Vector3(0, 1.0, 0), Vector3(0.5, 0.5, 0.5), 500.0)
	await ticks(600)
	var depth := 0.5 - b.position.y  # the box's bottom below the surface
	print("  box of density 500: centre y %.4f, %.1f %% of its height under, submerged %.4f m³" % [b.position.y, depth * 100.0, wv.get_submerged_volume(b.get_rid())])
	check(absf(depth - 0.5) < 0.03, "half its height under (%.4f of 1 m)" % depth)
	check(absf(wv.get_submerged_volume(b.get_rid()) - 0.5) < 0.03, "0.5 m³ displaced (%f)" % wv.get_submerged_volume(b.get_rid()))
	check(b.linear_velocity.length() < 0.02, "at rest (%s)" % b.linear_velocity)


func vehicle(parent: Node, pos: Vector3) -> Maul3DVehicleBody3D:
	var v := Maul3DVehicleBody3D.new()
	v.mass = 1000.0
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3(1.6, 0.5, 3.6)
	shape.shape = box
	v.add_child(shape)
	for x in [-0.8, 0.8]:
		for z in [-1.3, 1.3]:
			var wheel := Maul3DVehicleWheel3D.new()
			wheel.position = Vector3(x, -0.2, z)
			wheel.wheel_radius = 0.35
			wheel.wheel_rest_length = 0.3
			wheel.suspension_travel = 0.2
			wheel.suspension_stiffness = 40.0
			wheel.use_as_traction = z < 0.0
			wheel.use_as_steering = z > 0.0
			v.add_child(wheel)
	v.position = pos
	parent.add_child(v)
	return v


func test_a_maul3d_vehicle_rests_on_its_suspension_and_drives_forward() -> void:
	var w := new_world()
	static_box(w, Vector3(0, -0.5, 0), Vector3(100, 0.5, 100))
	var v := vehicle(w, Vector3(0, 1.0, 0))
	await ticks(180)
	check(v.has_vehicle(), "the vehicle was made")
	var wheels := v.get_children().filter(func(n): return n is Maul3DVehicleWheel3D)
	var lengths := []
	var contacts := 0
	for wh in wheels:
		lengths.append(snappedf(wh.get_suspension_length(), 0.001))
		if wh.is_in_contact():
			contacts += 1
	# 1000 kg on 4 springs of 40 · 1000 N/m: 9.8 / 160 = 0.061 m below the rest length 0.3.
	print("  vehicle at rest: y %.3f, suspension lengths %s" % [v.position.y, lengths])
	check(contacts == 4, "all 4 wheels touch the ground (%d)" % contacts)
	for l in lengths:
		check(absf(0.3 - l - 0.061) < 0.02, "compressed about 0.061 m from rest 0.3 (length %f)" % l)
	var z0 := v.position.z
	var wheel_y: float = wheels[0].position.y
	check(absf(wheel_y - (-0.2 - lengths[0])) < 0.01, "the wheel node hangs down the suspension (y %f)" % wheel_y)
	v.engine_force = 1000.0
	await ticks(180)
	print("  vehicle after 3 s of full throttle: z %.2f m, speed %.2f m/s, gear %d" % [v.position.z - z0, v.get_forward_speed(), v.get_gear()])
	check(v.position.z - z0 > 5.0, "it drove forward along +Z (%f m)" % (v.position.z - z0))
	check(v.get_forward_speed() > 3.0, "at speed (%f m/s)" % v.get_forward_speed())
	check(absf(v.position.x) < 0.5, "straight (x = %f)" % v.position.x)
	v.engine_force = 0.0
	v.brake = 1.0
	await ticks(240)
	check(absf(v.get_forward_speed()) < 0.2, "the brake stops it (%f m/s)" % v.get_forward_speed())


## A floor, a character walking, a vehicle driving, a box floating.
func build(parent: Node) -> Array:
	static_box(parent, Vector3(0, -0.5, 0), Vector3(50, 0.5, 50))
	var c := character(parent, Vector3(-5, 1.0, 0))
	var v := vehicle(parent, Vector3(5, 1.0, 0))
	var wv := Maul3DWaterVolume3D.new()
	wv.size = Vector3(4, 2, 4)
	wv.position = Vector3(0, 1, 20)
	parent.add_child(wv)
	floating_box(parent, Vector3(0, 3, 20), Vector3(0.4, 0.4, 0.4), 600.0)
	return [c, v]


func test_the_same_scene_with_maul3d_nodes_twice_gives_the_same_hash() -> void:
	var a := new_world()
	var b := new_world()
	var na := build(a)
	var nb := build(b)
	var differing := 0
	for t in 180:
		for n in [na, nb]:
			n[0].velocity = Vector3(1, n[0].velocity.y - 9.8 / 60.0, 0)
			n[0].move_and_slide()
			n[1].engine_force = 500.0 if t > 30 else 0.0
			n[1].steering = 0.2 if t > 90 else 0.0
		await get_tree().physics_frame
		if Maul3D.space_hash(a.world_3d.space) != Maul3D.space_hash(b.world_3d.space):
			differing += 1
	check(differing == 0, "the two spaces' hashes differ on %d of 180 ticks" % differing)
	check(Maul3D.compare_spaces(a.world_3d.space, b.world_3d.space) == 0, "compare_spaces finds no body that differs")
	check(na[0].position.distance_to(nb[0].position) == 0.0, "the characters agree")
	check(na[1].position.distance_to(nb[1].position) == 0.0, "the vehicles agree")
