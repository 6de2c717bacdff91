extends "res://test_case.gd"
# The physics/maul3d/* capacities are initial sizes: a space grows its world as it fills.


func _box_body(parent: Node, pos: Vector3, shape: Shape3D) -> RigidBody3D:
	var b := RigidBody3D.new()
	var s := CollisionShape3D.new()
	s.shape = shape
	b.add_child(s)
	b.position = pos
	parent.add_child(b)
	return b


func _floor(parent: Node, size: float) -> void:
	var floor_body := StaticBody3D.new()
	var fs := CollisionShape3D.new()
	var fb := BoxShape3D.new()
	fb.size = Vector3(size, 1, size)
	fs.shape = fb
	floor_body.add_child(fs)
	floor_body.position = Vector3(0, -0.5, 0)
	parent.add_child(floor_body)


func test_a_body_past_the_space_capacity_grows_the_space_and_simulates() -> void:
	var before = ProjectSettings.get_setting("physics/maul3d/body_capacity")
	ProjectSettings.set_setting("physics/maul3d/body_capacity", 3)
	var vp := SubViewport.new()
	vp.world_3d = World3D.new()
	var space := vp.world_3d.space  # made now, with the setting above
	ProjectSettings.set_setting("physics/maul3d/body_capacity", before)
	add_child(vp)
	_floor(vp, 20)
	var boxes: Array[RigidBody3D] = []
	for i in 3:
		boxes.append(_box_body(vp, Vector3(i * 2.0, 3, 0), BoxShape3D.new()))
	await ticks(30)
	# Capacity 3: the floor and three boxes still all exist; the space grew.
	for i in 3:
		check(boxes[i].position.y < 2.5, "box %d falls (y = %f)" % [i, boxes[i].position.y])
	check(Maul3D.space_step_count(space) >= 29, "the space steps (%d steps)" % Maul3D.space_step_count(space))
	vp.queue_free()


func test_three_thousand_bodies_with_300_convex_shapes_all_fall_and_rest_on_the_floor() -> void:
	# Past the default capacities (1,024 bodies, 256 hulls): every body simulates.
	var vp := SubViewport.new()
	vp.world_3d = World3D.new()
	add_child(vp)
	_floor(vp, 200)
	var box := BoxShape3D.new()
	box.size = Vector3(0.5, 0.5, 0.5)
	var convex := ConvexPolygonShape3D.new()
	convex.points = PackedVector3Array([
		Vector3(-0.25, -0.25, -0.25), Vector3(0.25, -0.25, -0.25), Vector3(0.25, -0.25, 0.25),
		Vector3(-0.25, -0.25, 0.25), Vector3(0, 0.3, 0)])
	var bodies: Array[RigidBody3D] = []
	var n := 3000
	for i in n:
		var pos := Vector3((i % 55) * 1.5 - 40.0, 1.0, (i / 55) * 1.5 - 40.0)
		bodies.append(_box_body(vp, pos, convex if i % 10 == 0 else box))
	await ticks(60)
	var fell := 0
	var on_floor := 0
	var convex_on_floor := 0
	for i in n:
		var y := bodies[i].position.y
		if y < 0.9:
			fell += 1
		if y > 0.1 and y < 0.5:
			on_floor += 1
			if i % 10 == 0:
				convex_on_floor += 1
	check(fell == n, "every body falls (%d of %d)" % [fell, n])
	check(on_floor == n, "every body rests on the floor (%d of %d)" % [on_floor, n])
	check(convex_on_floor == n / 10, "every convex body rests on the floor (%d of %d)" % [convex_on_floor, n / 10])
	vp.queue_free()
