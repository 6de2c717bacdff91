extends "res://test_case.gd"
# Maul3DReplayPlayer against the replay tool: test/godot.sh copies test/demo.m3replay into
# res://replays/, with `m3replay hashes` of it (demo_hashes.txt), a second recording that
# parts from it (`m3replay record --seed 2`: seed2.m3replay) and what `m3replay diff` says
# of the two (diff.txt).

const DIR := "res://replays/"


func player(file: String) -> Maul3DReplayPlayer:
	var p := Maul3DReplayPlayer.new()
	check(p.load_file(DIR + file), "%s loads (%s)" % [file, p.get_last_error()])
	return p


## `m3replay hashes`: "step hash" per line (step 0 too, or not: matched by step).
func tool_hashes() -> Dictionary:
	var out := {}
	var text := FileAccess.get_file_as_string(DIR + "demo_hashes.txt")
	for line in text.split("\n", false):
		var parts := line.split(" ", false)
		if parts.size() == 2 and parts[0].is_valid_int():
			out[int(parts[0])] = parts[1]
	return out


func test_the_replay_player_seeks_every_step_to_the_hash_m3replay_prints() -> void:
	var p := player("demo.m3replay")
	var expected := tool_hashes()
	var n := p.get_step_count()
	check(n == 300, "the demo has 300 steps (got %d)" % n)
	check(expected.size() >= n, "m3replay printed a hash per step (%d lines)" % expected.size())
	check(p.get_current_step() == 0, "a file opens at step 0")
	check(p.get_keyframe_every() >= 1, "keyframes every %d steps" % p.get_keyframe_every())
	var wrong := []
	for s in range(n + 1):
		check(p.seek(s), "seek %d (%s)" % [s, p.get_last_error()])
		check(p.get_current_step() == s, "the player is at step %d" % s)
		var h := p.hash_at_current()
		check(h.length() == 16, "a hash is 16 hex digits (%s)" % h)
		if expected.has(s) and expected[s] != h:
			wrong.append(s)
	check(wrong.is_empty(), "steps whose hash differs from m3replay's: %s" % [wrong.slice(0, 10)])
	check(p.hash_at_current() == p.get_recorded_final_hash(),
		"the last step's hash is the recorded final hash")


func test_the_replay_player_agrees_across_random_seeks_and_single_steps() -> void:
	var p := player("demo.m3replay")
	var n := p.get_step_count()
	var ref := {}
	for s in range(n + 1):
		p.seek(s)
		ref[s] = p.hash_at_current()
	var rng := RandomNumberGenerator.new()
	rng.seed = 15
	var bad := 0
	for i in 200:
		var s := rng.randi_range(0, n)
		if not p.seek(s) or p.hash_at_current() != ref[s]:
			bad += 1
	check(bad == 0, "%d of 200 random seeks disagree with the in-order pass" % bad)
	p.seek(100)
	check(p.step_forward() and p.get_current_step() == 101 and p.hash_at_current() == ref[101],
		"step_forward goes to step 101")
	check(p.step_back() and p.step_back() and p.hash_at_current() == ref[99],
		"step_back twice goes to step 99")
	p.seek(n)
	check(not p.step_forward() and p.get_last_error() == "", "step_forward at the end is false, no error")
	p.seek(0)
	check(not p.step_back() and p.get_current_step() == 0, "step_back at step 0 is false")
	check(not p.seek(n + 1) and p.get_last_error().contains(str(n + 1)),
		"a seek past the end is refused, naming the step (%s)" % p.get_last_error())
	check(not p.seek(-1) and p.get_current_step() == 0, "a negative seek is refused")
	check(p.seek(3) and p.get_last_error() == "", "a good call clears the error")
	var q := Maul3DReplayPlayer.new()
	check(q.load_bytes(FileAccess.get_file_as_bytes(DIR + "demo.m3replay")), "load_bytes opens it too")
	q.seek(250)
	check(q.hash_at_current() == ref[250], "both players agree at step 250")


func test_the_replay_player_verifies_and_refuses_a_damaged_file() -> void:
	var p := player("demo.m3replay")
	var v := p.verify()
	check(v["ok"] == true and v["error"] == "", "verify passes (%s)" % [v])
	check(v["recorded"] == v["replayed"] and v["recorded"] == p.get_recorded_final_hash(),
		"the replayed hash is the recorded one")
	check(p.get_current_step() == p.get_step_count(), "verify leaves the player at the last step")
	var bytes := FileAccess.get_file_as_bytes(DIR + "demo.m3replay")
	var damaged := bytes.duplicate()
	var at := damaged.size() / 2
	damaged[at] = damaged[at] ^ 0x10
	var path := "user://damaged.m3replay"
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_buffer(damaged)
	f.close()
	var d := Maul3DReplayPlayer.new()
	check(not d.load_file(path), "a file with one byte flipped is refused")
	check(not d.is_loaded(), "nothing is loaded after a refused file")
	var e := d.get_last_error()
	check(e.begins_with(path + ": ") and e.contains("damaged"),
		"the error names the file and the damage (%s)" % e)
	check(not d.load_file("user://no_such_file.m3replay") and d.get_last_error().contains("no_such_file"),
		"a missing file is refused with its name (%s)" % d.get_last_error())
	check(not d.seek(0) and d.get_last_error().contains("no replay is loaded"),
		"seeking with nothing loaded is an error")
	check(d.get_bodies().is_empty() and d.hash_at_current() == "", "nothing loaded: no bodies, no hash")


func test_the_replay_player_diff_finds_the_step_m3replay_diff_prints() -> void:
	var text := FileAccess.get_file_as_string(DIR + "diff.txt")
	var re := RegEx.create_from_string("the sessions part at step (\\d+)")
	var m := re.search(text)
	check(m != null, "m3replay diff printed a parting step (%s)" % text.left(200))
	if m == null:
		return
	var step := int(m.get_string(1))
	var a := player("demo.m3replay")
	var b := player("seed2.m3replay")
	var d := a.diff(b)
	check(d["result"] == "part", "the two recordings part (%s)" % [d])
	check(d["step"] == step, "at step %d as m3replay says (got %s)" % [step, d["step"]])
	check(a.get_current_step() == step and b.get_current_step() == step, "both players are at the parting step")
	check(d["hash_a"] == a.hash_at_current() and d["hash_b"] == b.hash_at_current() and d["hash_a"] != d["hash_b"],
		"the hashes there are the players' and differ")
	var bodies: Array = d["bodies"]
	check(d["differing"] >= 1 and bodies.size() >= 1 and bodies.size() <= d["differing"],
		"%d differing bodies, %d rows" % [d["differing"], bodies.size()])
	for i in range(1, bodies.size()):
		check(bodies[i - 1]["position_error"] >= bodies[i]["position_error"], "rows are worst first")
	var same := a.diff(player("demo.m3replay"))
	check(same["result"] == "agree" and same["step"] == a.get_step_count(), "a recording agrees with itself (%s)" % [same])
	var self_diff := a.diff(a)
	check(self_diff["result"] == "error" and a.get_last_error() != "", "diff with itself is refused (%s)" % a.get_last_error())


func test_the_replay_player_bodies_and_shapes_describe_one_world() -> void:
	var p := player("demo.m3replay")
	p.seek(p.get_step_count())
	var bodies := p.get_bodies()
	var by_slot := {}
	for b in bodies:
		by_slot[b["slot"]] = b
		check(p.get_body(b["slot"]) == b, "get_body(%d) is get_bodies' entry" % b["slot"])
		var t: Transform3D = b["transform"]
		check(t.origin.is_equal_approx(b["position"]), "body %d: transform origin is its position" % b["slot"])
	check(bodies.size() == 26, "26 bodies live at the demo's last step (got %d)" % bodies.size())
	check(p.get_body(999).is_empty(), "no body in slot 999")
	var types := {}
	for b in bodies:
		types[b["type"]] = true
	check(types.has("static") and types.has("kinematic") and types.has("dynamic"), "all three body types (%s)" % [types.keys()])
	var asleep := bodies.filter(func(b): return b["sleeping"]).size()
	check(asleep > 0 and asleep < bodies.size(), "some bodies sleep, some not (%d of %d)" % [asleep, bodies.size()])

	var shapes := p.get_shapes()
	var kinds := {}
	var bad := []
	for s in shapes:
		kinds[s["kind"]] = true
		var slot: int = s["body_slot"]
		if not by_slot.has(slot):
			bad.append("shape of slot %d has no body" % slot)
			continue
		if s["sleeping"] != by_slot[slot]["sleeping"]:
			bad.append("slot %d sleeping differs" % slot)
		var frame: Transform3D = s["transform"]
		var body: Transform3D = by_slot[slot]["transform"]
		# Every shape of the demo lies within 1.5 m of its body's origin.
		if frame.origin.distance_to(body.origin) > 1.5:
			bad.append("slot %d: shape frame far from its body" % slot)
		match s["kind"]:
			"sphere":
				if not (s["radius"] > 0.0):
					bad.append("sphere radius")
			"capsule":
				if not (s["radius"] > 0.0 and s["half_height"] > 0.0):
					bad.append("capsule size")
			"box":
				var h: Vector3 = s["half_extents"]
				if not (h.x > 0 and h.y > 0 and h.z > 0):
					bad.append("box size")
			"hull":
				var tris: PackedVector3Array = s["triangles"]
				if tris.size() < 12 or tris.size() % 3 != 0:
					bad.append("hull triangles %d" % tris.size())
	check(bad.is_empty(), "shapes agree with bodies: %s" % [bad.slice(0, 5)])
	var kind_list := kinds.keys()
	kind_list.sort()
	check(kind_list == ["box", "capsule", "hull", "sphere"], "the demo's shape kinds (%s)" % [kind_list])
	var ground: Array = shapes.filter(func(s): return s["body_slot"] == 0)
	check(ground.size() == 1 and ground[0]["kind"] == "box" and by_slot[0]["type"] == "static"
		and (ground[0]["half_extents"] as Vector3).is_equal_approx(Vector3(20, 0.5, 20)),
		"slot 0 is the static 40 x 1 x 40 ground box")
	var paddle: Array = bodies.filter(func(b): return b["type"] == "kinematic")
	var paddle_shape: Array = shapes.filter(func(s): return paddle.size() == 1 and s["body_slot"] == paddle[0]["slot"])
	check(paddle_shape.size() == 1 and (paddle_shape[0]["half_extents"] as Vector3).is_equal_approx(Vector3(1.5, 0.3, 0.2)),
		"the kinematic paddle is a 3 x 0.6 x 0.4 box")
	var caps: Array = shapes.filter(func(s): return s["kind"] == "capsule")
	check(caps.all(func(c): return is_equal_approx(c["radius"], 0.25) or is_equal_approx(c["radius"], 0.2)),
		"capsule radii are the demo's 0.25 and 0.2")
	var contacts := p.get_contacts()
	check(contacts.size() > 0, "bodies resting on the ground touch it (%d contact points)" % contacts.size())
	check(contacts.all(func(c): return c["point"] is Vector3 and is_equal_approx((c["normal"] as Vector3).length(), 1.0)),
		"contacts have a point and a unit normal")
