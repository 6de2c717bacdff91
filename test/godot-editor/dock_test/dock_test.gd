@tool
extends EditorPlugin
# Test only (test/godot-editor.sh, test/godot-picture.sh): with `-- --dock-test` on the
# editor's command line, finds the "Maul3D Replay" dock that addons/maul3d/plugin.gd
# added, drives it like a user (open a replay, move the timeline, step, pick a body,
# verify, diff) and checks what it shows against a Maul3DReplayPlayer of its own and
# against `m3replay hashes`/`m3replay diff` (files the shell script wrote under
# res://replays/). Prints one line per check and `dock test: N passed, M failed`, then
# quits with 0 only when every check passed.
#
# `--dock-test=missing` (the project copied without the library) checks that the dock
# shows the plugin's message naming the platform and the file instead.
#
# `--dock-test=picture:<dir>` (the editor under Xvfb with OpenGL) also renders the dock's
# 3D view at two steps, saves both as PNG in <dir>, checks that the pixels differ where
# bodies moved and nowhere else, and saves the dock as it looks as dock.png.

const DEMO := "res://replays/demo.m3replay"
const OTHER := "res://replays/other.m3replay"
const HASHES := "res://replays/demo.hashes"
const DIFF := "res://replays/diff.txt"
const MAX_WAIT_FRAMES := 1200

var passed := 0
var failed := 0
var mode := ""


func _enter_tree() -> void:
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--dock-test"):
			mode = a.get_slice("=", 1) if a.contains("=") else "headless"
	if not mode.is_empty():
		run.call_deferred()


func check(cond: bool, what: String) -> void:
	if cond:
		passed += 1
		print("ok   ", what)
	else:
		failed += 1
		print("FAIL ", what)


func finish() -> void:
	print("dock test: %d passed, %d failed" % [passed, failed])
	get_tree().quit(1 if failed > 0 or passed == 0 else 0)


func run() -> void:
	OS.low_processor_usage_mode = false
	# The editor adds plugins one by one after its first frames: wait for the dock.
	var dock: Node = null
	for i in MAX_WAIT_FRAMES:
		await get_tree().process_frame
		dock = EditorInterface.get_base_control().find_child("Maul3DReplayDock", true, false)
		if dock != null:
			break
	check(dock != null, "the Maul3D Replay dock exists in the editor")
	if dock == null:
		finish()
		return
	check(dock is EditorDock and dock.title == "Maul3D Replay", "it is an EditorDock titled 'Maul3D Replay'")
	check(dock.default_slot == EditorDock.DOCK_SLOT_BOTTOM, "it docks in the bottom panel")
	if mode == "missing":
		missing(dock)
		finish()
		return
	var ui: Node = dock.find_child("ReplayDock", true, false)
	if ui == null:
		var missing: Node = dock.find_child("LibraryMissing", true, false)
		check(false, "the dock shows its UI (it shows: %s)" % (missing.text if missing != null else "nothing"))
		finish()
		return
	# Open the bottom panel on the dock (once the editor has finished loading, it stays).
	for i in MAX_WAIT_FRAMES:
		dock.make_visible()
		await get_tree().process_frame
		if dock.is_visible_in_tree() and i > 10:
			break
	check(dock.is_visible_in_tree(), "the dock shows in the bottom panel")
	if mode.begins_with("picture:"):
		# Room for the picture: the bottom panel taller than its default.
		(dock.find_child("ReplayDock", true, false) as Control).custom_minimum_size.y = 440
		await get_tree().process_frame
	await drive(ui)
	if mode.begins_with("picture:"):
		await picture(dock, ui, mode.trim_prefix("picture:"))
	finish()


func hashes_from_tool() -> Dictionary:
	var out := {}
	var text := FileAccess.get_file_as_string(HASHES)
	for line in text.split("\n", false):
		var parts := line.split(" ", false)
		if parts.size() == 2:
			out[int(parts[0])] = parts[1]
	return out


func drive(ui: Node) -> void:
	var reference: RefCounted = ClassDB.instantiate("Maul3DReplayPlayer")
	check(reference.load_file(DEMO), "a player of the test's own loads %s (%s)" % [DEMO, reference.get_last_error()])
	var tool_hashes := hashes_from_tool()
	check(tool_hashes.size() >= 300, "m3replay hashes gave %d steps" % tool_hashes.size())
	check(ui.open_replay(DEMO), "the dock opens %s" % DEMO)
	var timeline: HSlider = ui.find_child("Timeline", true, false)
	var step_label: Label = ui.find_child("StepLabel", true, false)
	var hash_label: Label = ui.find_child("HashLabel", true, false)
	var count: int = reference.get_step_count()
	check(timeline != null and step_label != null and hash_label != null, "the dock has a timeline, a step label and a hash label")
	check(timeline.max_value == count, "the timeline spans every step (max %d, steps %d)" % [timeline.max_value, count])
	# The dock takes the keyframes a little every frame; the shown step stays put.
	var before_index: int = ui.player.get_indexed_through()
	for i in MAX_WAIT_FRAMES:
		if ui.player.get_indexed_through() == count:
			break
		await get_tree().process_frame
	check(before_index < count and ui.player.get_indexed_through() == count and ui.player.get_current_step() == 0 and step_label.text == "step 0 / %d" % count,
		"the dock indexes in the background: keyframes through step %d (from %d), still showing step 0" % [ui.player.get_indexed_through(), before_index])
	for step in [count / 3, count, 1, 0, 217, count / 2]:
		# Moving the slider as a user drags it: value_changed is what the dock listens to.
		timeline.value = step
		await get_tree().process_frame
		reference.seek(step)
		var want: String = reference.hash_at_current()
		check(step_label.text == "step %d / %d" % [step, count], "slider at %d: the step label reads '%s'" % [step, step_label.text])
		check(hash_label.text == "hash " + want, "slider at %d: the hash label '%s' is the player's %s" % [step, hash_label.text, want])
		if tool_hashes.has(step):
			check(want == tool_hashes[step], "step %d: the hash is m3replay's %s" % [step, tool_hashes[step]])
		check(ui.view.instances.size() == reference.get_shapes().size() and ui.view.instances.size() > 0,
			"step %d: the view draws every shape (%d of %d)" % [step, ui.view.instances.size(), reference.get_shapes().size()])
	# The step buttons.
	var forward: Button = ui.find_child("ForwardButton", true, false)
	var back: Button = ui.find_child("BackButton", true, false)
	var at: int = timeline.value
	forward.pressed.emit()
	forward.pressed.emit()
	back.pressed.emit()
	check(int(timeline.value) == at + 1 and step_label.text == "step %d / %d" % [at + 1, count], "+1 +1 -1 from %d shows step %d (%s)" % [at, at + 1, step_label.text])
	# Pick the dynamic body nearest the camera at its drawn centre.
	var view: Control = ui.view
	reference.seek(at + 1)
	var picked := -1
	var target := -1
	var best := INF
	for b in reference.get_bodies():
		if b.type == "dynamic":
			var d: float = view.camera.global_position.distance_to(b.position)
			if d < best and not view.camera.is_position_behind(b.position):
				best = d
				target = b.slot
	if target >= 0:
		var point: Vector2 = view.camera.unproject_position(reference.get_body(target).position)
		picked = view.pick(point)
		ui.select_body(picked)
	var body_label: Label = ui.find_child("BodyLabel", true, false)
	check(picked == target and body_label.text.begins_with("slot %d  dynamic" % target),
		"a click on dynamic body %d picks it and the panel shows it ('%s')" % [target, body_label.text.get_slice("\n", 0)])
	# Contacts as points.
	var contacts_toggle: CheckBox = ui.find_child("ContactsToggle", true, false)
	contacts_toggle.button_pressed = true
	var contact_count: int = reference.get_contacts().size()
	check(contact_count > 0 and view.contact_mesh.multimesh.instance_count == contact_count and view.contact_mesh.visible,
		"Contacts on: %d points drawn of the player's %d" % [view.contact_mesh.multimesh.instance_count, contact_count])
	contacts_toggle.button_pressed = false
	# A ray shape is drawn as a bar from its origin along +Z, as long as the ray.
	var ray_key: String = view.mesh_key({kind = "ray", length = 2.5})
	var ray_box: AABB = view.mesh_for({kind = "ray", length = 2.5}, ray_key).get_aabb()
	check(is_equal_approx(ray_box.position.z, 0.0) and is_equal_approx(ray_box.end.z, 2.5) and ray_box.size.x < 0.2,
		"a ray shape of length 2.5 is drawn from z 0 to 2.5 (%s)" % ray_box)
	# Play at 8x until the step moves on, then pause: the labels follow.
	var speed: OptionButton = ui.find_child("Speed", true, false)
	speed.select(speed.item_count - 1)
	var play: Button = ui.find_child("PlayButton", true, false)
	var from: int = int(timeline.value)
	play.button_pressed = true
	for i in MAX_WAIT_FRAMES:
		await get_tree().process_frame
		if int(timeline.value) >= from + 5:
			break
	play.button_pressed = false
	var now := int(timeline.value)
	reference.seek(now)
	check(now >= from + 5 and step_label.text == "step %d / %d" % [now, count] and hash_label.text == "hash " + reference.hash_at_current(),
		"Play moves from step %d to %d, labels following ('%s', '%s')" % [from, now, step_label.text, hash_label.text])
	speed.select(2)
	at = now - 1
	ui.seek(at + 1)
	# Verify.
	var r: Dictionary = ui.verify()
	check(r.get("ok", false) and r.recorded == r.replayed, "Verify: ok, %s = %s" % [r.get("recorded"), r.get("replayed")])
	var status: Label = ui.find_child("StatusLabel", true, false)
	check(status.text.contains(str(r.get("replayed"))), "the status shows the verified hash ('%s')" % status.text)
	check(int(timeline.value) == at + 1, "after Verify the dock is back at step %d" % (at + 1))
	# Diff with a second recording (another seed): the step `m3replay diff` finds.
	var want_step := int(FileAccess.get_file_as_string(DIFF).strip_edges())
	var d: Dictionary = ui.diff_with(OTHER)
	check(d.get("result") == "part" and d.step == want_step, "Diff: parts at step %s (m3replay diff: %d)" % [d.get("step"), want_step])
	check(step_label.text == "step %d / %d" % [want_step, count], "Diff jumps to the parting step ('%s')" % step_label.text)
	var list: ItemList = ui.find_child("DiffList", true, false)
	check(list.item_count == mini(int(d.get("differing", 0)), 16) and list.item_count > 0, "the differing bodies are listed (%d of %d)" % [list.item_count, d.get("differing", 0)])
	check(ui.view.differing_slots.size() == list.item_count, "and highlighted in the view (%d)" % ui.view.differing_slots.size())
	# The recordings list: what the project saved under user://maul3d_replays/.
	DirAccess.make_dir_recursive_absolute("user://maul3d_replays")
	DirAccess.copy_absolute(DEMO, "user://maul3d_replays/dock-test.m3replay")
	(ui.find_child("RefreshButton", true, false) as Button).pressed.emit()
	var recent: OptionButton = ui.find_child("Recent", true, false)
	var index := -1
	for i in recent.item_count:
		if recent.get_item_text(i) == "dock-test.m3replay":
			index = i
	check(index > 0, "the recordings list shows user://maul3d_replays/dock-test.m3replay")
	if index > 0:
		recent.item_selected.emit(index)
		var file_label: Label = ui.find_child("FileLabel", true, false)
		check(file_label.text == "dock-test.m3replay" and step_label.text == "step 0 / %d" % count, "picking it opens it at step 0 ('%s', '%s')" % [file_label.text, step_label.text])
	DirAccess.remove_absolute("user://maul3d_replays/dock-test.m3replay")


## `--dock-test=missing`: the library is not there; the dock says so instead of its UI.
func missing(dock: Node) -> void:
	var label: Node = dock.find_child("LibraryMissing", true, false)
	check(dock.find_child("ReplayDock", true, false) == null, "without the library the dock has no replay UI")
	check(label is Label, "it shows a message instead")
	if label is Label:
		var text: String = label.text
		var platform := "%s %s" % [OS.get_name(), Engine.get_architecture_name()]
		check(text.contains(platform) and text.contains("res://addons/maul3d/") and text.contains(".so") and text.contains("missing"),
			"the message names the platform (%s) and the missing file: '%s'" % [platform, text])


## Renders the view at two steps and compares the pictures.
func picture(dock: Node, ui: Node, dir: String) -> void:
	DirAccess.make_dir_recursive_absolute(dir)
	var view: Control = ui.view
	ui.open_replay(DEMO)
	view.viewport.render_target_update_mode = SubViewport.UPDATE_ALWAYS
	check(view.size.x >= 200 and view.size.y >= 120, "the view has room to draw (%s)" % view.size)
	var steps := [40, 200]
	var shots: Array[Image] = []
	var bounds: Array = []
	for step in steps:
		ui.seek(step)
		for i in 4:
			await RenderingServer.frame_post_draw
		var img: Image = view.viewport.get_texture().get_image()
		img.convert(Image.FORMAT_RGB8)
		img.save_png(dir.path_join("step-%d.png" % step))
		shots.append(img)
		bounds.append(drawn_bounds(view))
	var a := shots[0]
	var b := shots[1]
	check(a.get_size() == b.get_size(), "both pictures have the same size (%s, %s)" % [a.get_size(), b.get_size()])
	if a.get_size() != b.get_size():
		return
	var moved := moved_rects(bounds[0], bounds[1])
	var differing := 0
	var explained := 0
	for y in a.get_height():
		for x in a.get_width():
			if not same(a.get_pixel(x, y), b.get_pixel(x, y)):
				differing += 1
				for r in moved:
					if r.has_point(Vector2(x, y)):
						explained += 1
						break
	print("picture: %d pixels differ between steps %d and %d, %d of them where bodies moved (%d moved)" % [differing, steps[0], steps[1], explained, moved.size()])
	check(differing > 500, "the pictures differ (%d pixels)" % differing)
	check(explained >= differing * 0.98, "the differing pixels lie where bodies moved (%d of %d)" % [explained, differing])
	# The top-left corner is sky at both steps: the background, the same in both.
	var bg: Color = view.palette.background
	var corner_same := true
	var corner_bg := true
	for y in 16:
		for x in 16:
			corner_same = corner_same and same(a.get_pixel(x, y), b.get_pixel(x, y))
			corner_bg = corner_bg and same(a.get_pixel(x, y), bg)
	check(corner_same and corner_bg, "the empty corner is the same background in both (same %s, background %s)" % [corner_same, corner_bg])
	# The dock as a user sees it, a body picked, for the README.
	ui.select_body(first_dynamic(ui.player))
	for i in 4:
		await RenderingServer.frame_post_draw
	var whole: Image = dock.get_viewport().get_texture().get_image()
	var rect := Rect2i(dock.get_global_rect())
	var shot := whole.get_region(rect)
	shot.convert(Image.FORMAT_RGB8)
	check(shot.save_png(dir.path_join("dock.png")) == OK, "the dock's picture is saved (%s)" % rect.size)


func first_dynamic(player: RefCounted) -> int:
	for b in player.get_bodies():
		if b.type == "dynamic" and not b.sleeping:
			return b.slot
	return -1


func same(p: Color, q: Color) -> bool:
	return absf(p.r - q.r) < 0.02 and absf(p.g - q.g) < 0.02 and absf(p.b - q.b) < 0.02


## Every drawn shape's screen rectangle (its bounds' corners projected), with its transform.
func drawn_bounds(view: Control) -> Array:
	var out := []
	for i in view.instances.size():
		var inst: MeshInstance3D = view.instances[i]
		if view.instance_is_plane[i]:
			out.append({xf = inst.transform, rect = Rect2()})
			continue
		var box: AABB = inst.transform * inst.get_aabb()
		var r := Rect2(view.camera.unproject_position(box.position), Vector2.ZERO)
		for c in 8:
			r = r.expand(view.camera.unproject_position(box.get_endpoint(c)))
		out.append({xf = inst.transform, rect = r.grow(3.0)})
	return out


## The screen rectangles, at either step, of the shapes that moved between them.
func moved_rects(a: Array, b: Array) -> Array[Rect2]:
	var out: Array[Rect2] = []
	for i in maxi(a.size(), b.size()):
		if i < a.size() and i < b.size() and a[i].xf.is_equal_approx(b[i].xf):
			continue
		if i < a.size():
			out.append(a[i].rect)
		if i < b.size():
			out.append(b[i].rect)
	return out
