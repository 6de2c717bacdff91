extends "res://test_case.gd"
# The step's per-tick work follows the objects that need it (constant forces, contact
# reporters, area monitors, moving kinematic bodies: records::Watch), and body states
# read in state-sync callbacks come from a snapshot filled before them (direct.rs
# BodySnap). These check that neither loses a behaviour.


func box_body(body: PhysicsBody3D, pos: Vector3, half: Vector3) -> PhysicsBody3D:
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = half * 2.0
	shape.shape = box
	body.add_child(shape)
	body.position = pos
	return body


## A world of its own, with room for `n` bodies (made while the setting is raised).
func big_world(n: int) -> SubViewport:
	var keys := ["physics/maul3d/body_capacity", "physics/maul3d/shape_capacity"]
	var before := []
	for k in keys:
		before.append(ProjectSettings.get_setting(k))
		ProjectSettings.set_setting(k, n)
	var vp := SubViewport.new()
	vp.world_3d = World3D.new()
	var _space := vp.world_3d.space
	for i in keys.size():
		ProjectSettings.set_setting(keys[i], before[i])
	add_child(vp)
	return vp


func test_a_sleeping_box_given_a_constant_force_rises_once_woken() -> void:
	add_child(box_body(StaticBody3D.new(), Vector3(0, -0.5, 0), Vector3(10, 0.5, 10)))
	var box: RigidBody3D = box_body(RigidBody3D.new(), Vector3(0, 0.5, 0), Vector3(0.5, 0.5, 0.5))
	add_child(box)
	for i in 240:
		await ticks(1)
		if box.sleeping:
			break
	check(box.sleeping, "the resting box fell asleep")
	# Twice its weight upward: once awake it rises at g.
	box.constant_force = Vector3(0, 2.0 * box.mass * 9.8, 0)
	await ticks(10)
	box.sleeping = false
	await ticks(30)
	check(box.position.y > 1.0, "woken, the constant force lifts it (y = %f)" % box.position.y)
	check(not box.sleeping, "and it is awake")
	box.constant_force = Vector3.ZERO
	await ticks(150)
	check(box.position.y < 0.6, "without the force it falls back to the floor (y = %f)" % box.position.y)


func test_a_contact_monitor_among_two_thousand_bodies_still_reports() -> void:
	var vp := big_world(2100)
	var floor_body := box_body(StaticBody3D.new(), Vector3(0, -0.5, 0), Vector3(10, 0.5, 10))
	vp.add_child(floor_body)
	# 2,000 static boxes far apart (no pairs), made before the bodies under test so
	# those have the highest RIDs.
	for i in 2000:
		var pos := Vector3(100 + (i % 50) * 3.0, 0, (i / 50) * 3.0)
		vp.add_child(box_body(StaticBody3D.new(), pos, Vector3(0.5, 0.5, 0.5)))
	var box: RigidBody3D = box_body(RigidBody3D.new(), Vector3(0, 2, 0), Vector3(0.5, 0.5, 0.5))
	box.contact_monitor = true
	box.max_contacts_reported = 4
	var entered: Array[Node] = []
	box.body_entered.connect(func(b): entered.append(b))
	vp.add_child(box)
	var pushed: RigidBody3D = box_body(RigidBody3D.new(), Vector3(-20, 5, 0), Vector3(0.5, 0.5, 0.5))
	pushed.gravity_scale = 0.0
	pushed.constant_force = Vector3(pushed.mass * 2.0, 0, 0)
	vp.add_child(pushed)
	await ticks(90)
	check(entered.size() == 1 and entered[0] == floor_body,
		"the monitored box reports the floor once (%s)" % [entered])
	# x = -20 + ½·2·t² (linear damping 0.1/s slows it a little): about 2.25 m in 1.5 s.
	check(pushed.position.x > -18.2 and pushed.position.x < -17.6,
		"the constant force pushes the last body (x = %f)" % pushed.position.x)
	vp.queue_free()


func test_body_states_in_integrate_forces_read_back_their_writes_and_other_bodies_changes() -> void:
	add_child(box_body(StaticBody3D.new(), Vector3(0, -0.5, 0), Vector3(10, 0.5, 10)))
	var others: Array[RigidBody3D] = []
	for i in 3:
		var o: RigidBody3D = box_body(RigidBody3D.new(), Vector3(3 + i * 2.0, 5, 0), Vector3(0.5, 0.5, 0.5))
		o.can_sleep = false
		add_child(o)
		others.append(o)
	var probe: RigidBody3D = box_body(load("res://state_probe_body.gd").new(), Vector3(0, 5, 0), Vector3(0.5, 0.5, 0.5))
	probe.can_sleep = false
	probe.gravity_scale = 0.0
	add_child(probe)
	await ticks(2)
	probe.other = others[1].get_rid()
	await ticks(30)
	check(probe.calls >= 29, "_integrate_forces ran every tick (%d)" % probe.calls)
	check(probe.own_seen == probe.calls,
		"a velocity written through the body state reads back at once (%d of %d)" % [probe.own_seen, probe.calls])
	check(probe.other_calls >= 25 and probe.other_seen == probe.other_calls,
		"another body's direct state shows a change the server made in the same flush (%d of %d)" % [probe.other_seen, probe.other_calls])
	# +0.5 m/s each tick for ~32 ticks, no gravity: it moved along x.
	check(probe.linear_velocity.x > 10.0, "the writes took effect (v = %s)" % probe.linear_velocity)
