extends "res://test_case.gd"


func test_a_body_past_the_space_capacity_is_inert_and_the_rest_simulate() -> void:
	var before = ProjectSettings.get_setting("physics/maul3d/body_capacity")
	ProjectSettings.set_setting("physics/maul3d/body_capacity", 3)
	var vp := SubViewport.new()
	vp.world_3d = World3D.new()
	var space := vp.world_3d.space  # made now, with the setting above
	ProjectSettings.set_setting("physics/maul3d/body_capacity", before)
	add_child(vp)
	var floor_body := StaticBody3D.new()
	var fs := CollisionShape3D.new()
	var fb := BoxShape3D.new()
	fb.size = Vector3(20, 1, 20)
	fs.shape = fb
	floor_body.add_child(fs)
	floor_body.position = Vector3(0, -0.5, 0)
	vp.add_child(floor_body)
	var boxes: Array[RigidBody3D] = []
	for i in 3:
		var b := RigidBody3D.new()
		var s := CollisionShape3D.new()
		var bs := BoxShape3D.new()
		s.shape = bs
		b.add_child(s)
		b.position = Vector3(i * 2.0, 3, 0)
		vp.add_child(b)
		boxes.append(b)
	await ticks(30)
	# Capacity 3: the floor and two boxes; the third box's RID is inert (one error
	# naming physics/maul3d/body_capacity is printed).
	check(boxes[0].position.y < 2.5 and boxes[1].position.y < 2.5,
		"the first two boxes fall (%f, %f)" % [boxes[0].position.y, boxes[1].position.y])
	check(boxes[2].position.y == 3.0, "the third box is inert (y = %f)" % boxes[2].position.y)
	check(Maul3D.space_step_count(space) >= 29, "the space still steps (%d steps, active %s, hash %d)" % [Maul3D.space_step_count(space), PhysicsServer3D.space_is_active(space), Maul3D.space_hash(space)])
