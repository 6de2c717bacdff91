extends "res://test_case.gd"


func test_maul3d_is_the_running_physics_server() -> void:
	check(Engine.has_singleton("Maul3D"), "the Maul3D singleton is registered")
	check(Maul3D.is_active(), "Maul3D.is_active() is true")
	check(PhysicsServer3D.get_class() == "Maul3DPhysicsServer",
		"PhysicsServer3D is a Maul3DPhysicsServer, not %s" % PhysicsServer3D.get_class())


func test_the_default_space_is_a_world_that_steps_every_tick() -> void:
	var s := space()
	var before: int = Maul3D.space_step_count(s)
	await ticks(10)
	var after: int = Maul3D.space_step_count(s)
	check(after - before >= 10, "10 ticks step the world at least 10 times (%d)" % (after - before))
	check(Maul3D.space_hash(s) != 0, "the space has a state hash")
