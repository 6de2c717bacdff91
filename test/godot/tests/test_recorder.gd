extends "res://test_case.gd"
# Maul3DRecorder: records a small scene from _ready, saves a replay that
# Maul3DReplayPlayer opens and verifies (test/godot.sh verifies the printed file with
# `m3replay verify` too), and saves when it leaves the tree.


func new_world() -> SubViewport:
	var vp := SubViewport.new()
	vp.world_3d = World3D.new()
	add_child(vp)
	return vp


func scene(parent: Node) -> void:
	var ground := StaticBody3D.new()
	var gs := CollisionShape3D.new()
	var gb := BoxShape3D.new()
	gb.size = Vector3(20, 1, 20)
	gs.shape = gb
	ground.add_child(gs)
	ground.position = Vector3(0, -0.5, 0)
	parent.add_child(ground)
	for i in 4:
		var b := RigidBody3D.new()
		var s := CollisionShape3D.new()
		var sphere := SphereShape3D.new()
		sphere.radius = 0.3
		s.shape = sphere
		b.add_child(s)
		b.position = Vector3(i * 0.7 - 1.0, 1.0 + i * 0.5, 0)
		parent.add_child(b)


func test_a_recorder_saves_a_replay_the_player_verifies() -> void:
	var w := new_world()
	var rec := Maul3DRecorder.new()
	check(rec.autostart and rec.save_on_exit and rec.capacity_bytes == 16 << 20 and rec.file_name == "",
		"defaults: autostart, save_on_exit, 16 MiB, no file name")
	w.add_child(rec)
	check(rec.is_recording(), "the recorder records from _ready")
	scene(w)
	await ticks(40)
	var path := rec.save()
	check(not rec.is_recording(), "save ends the recording")
	var dir := Maul3DRecorder.get_replay_dir()
	check(dir == "user://maul3d_replays", "the replay folder (%s)" % dir)
	var name_re := RegEx.create_from_string("^%s/%s-\\d+(-\\d+)?\\.m3replay$" % [dir, get_tree().current_scene.name])
	check(name_re.search(path) != null, "the default file name is <scene>-<unix time>.m3replay (%s)" % path)
	check(FileAccess.file_exists(path), "the file exists")
	var p := Maul3DReplayPlayer.new()
	check(p.load_file(path), "the player opens it (%s)" % p.get_last_error())
	check(p.get_step_count() >= 35 and p.get_step_count() <= 45, "about 40 steps recorded (%d)" % p.get_step_count())
	p.seek(0)
	var start := p.get_bodies().size()
	p.seek(p.get_step_count())
	check(start == 0 and p.get_bodies().size() == 5, "bodies made after the start are on the tape (%d, then %d)" % [start, p.get_bodies().size()])
	var v := p.verify()
	check(v["ok"], "the recording verifies (%s)" % [v])
	print("replay: ", ProjectSettings.globalize_path(path))
	check(rec.save() == "", "a second save with nothing recording fails")
	w.queue_free()


func test_a_recorder_saves_when_it_leaves_the_tree() -> void:
	var w := new_world()
	scene(w)
	await ticks(5)
	var rec := Maul3DRecorder.new()
	rec.file_name = "recorder_exit_test.m3replay"
	var path := "user://maul3d_replays/recorder_exit_test.m3replay"
	DirAccess.remove_absolute(path)
	w.add_child(rec)
	await ticks(20)
	w.queue_free()
	await get_tree().process_frame
	check(FileAccess.file_exists(path), "the recorder saved %s on leaving the tree" % path)
	var p := Maul3DReplayPlayer.new()
	check(p.load_file(path), "the player opens it (%s)" % p.get_last_error())
	check(p.seek(0) and p.get_bodies().size() == 5, "the scene was there at the start (%d bodies)" % p.get_bodies().size())
	check(p.verify()["ok"], "it verifies")
	print("replay: ", ProjectSettings.globalize_path(path))
	var off := Maul3DRecorder.new()
	off.autostart = false
	add_child(off)
	check(not off.is_recording(), "autostart off: not recording")
	off.queue_free()


func test_a_recorded_separation_ray_is_among_the_players_shapes() -> void:
	# A body standing on a SeparationRayShape3D (1.5 m long, pointing down its -Y): the
	# player's get_shapes gives it as a "ray" (along the frame's +Z) with its length and a
	# frame whose +Z is the world's down, as the other shapes come, from the core's debug draw.
	var w := new_world()
	var rec := Maul3DRecorder.new()
	w.add_child(rec)
	scene(w)
	var b := RigidBody3D.new()
	var s := CollisionShape3D.new()
	var ray := SeparationRayShape3D.new()
	ray.length = 1.5
	s.shape = ray
	s.rotation = Vector3(PI / 2, 0, 0)
	b.add_child(s)
	b.position = Vector3(4, 3, 0)
	w.add_child(b)
	await ticks(10)
	var path := rec.save("ray_shape_test.m3replay")
	var p := Maul3DReplayPlayer.new()
	check(p.load_file(path) and p.seek(p.get_step_count()), "the player opens it (%s)" % p.get_last_error())
	var rays: Array = p.get_shapes().filter(func(d): return d.kind == "ray")
	check(rays.size() == 1, "one ray shape among %d shapes" % p.get_shapes().size())
	if rays.size() == 1:
		var r: Dictionary = rays[0]
		var down: Vector3 = (r.transform as Transform3D).basis.z.normalized()
		check(is_equal_approx(r.length, 1.5) and down.dot(Vector3.DOWN) > 0.99,
			"its length is 1.5 (%s) and it points down (%s)" % [r.length, down])
		var slots: Array = p.get_bodies().map(func(d): return d.slot)
		check(slots.has(r.body_slot), "its body %d is among the bodies" % r.body_slot)
	check(p.verify()["ok"], "it verifies")
	print("replay: ", ProjectSettings.globalize_path(path))
	w.queue_free()
