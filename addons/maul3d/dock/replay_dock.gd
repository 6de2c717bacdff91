@tool
extends VBoxContainer
## The "Maul3D Replay" dock: open a .m3replay (file dialog, or the recordings the project
## saved under user://maul3d_replays/), scrub its timeline, play it, see the world in 3D,
## pick a body, verify the recording and diff it with a second one.
##
## Every replay operation is the extension's Maul3DReplayPlayer (the core's ReplayPlayer);
## this script only lays out controls. It names the extension's classes through ClassDB,
## not as types, so the addon still parses when the library failed to load.

const ReplayView := preload("replay_view.gd")
const REPLAY_DIR := "user://maul3d_replays"
const SPEEDS := [0.25, 0.5, 1.0, 2.0, 4.0, 8.0]
const DIFF_ROWS := 16

## The loaded replay (a Maul3DReplayPlayer), or null.
var player: RefCounted
## Its path, as opened.
var replay_path := ""
## The second recording of the last diff, or null.
var other: RefCounted
## Keyframes are taken ahead of the shown step this many steps at a time, for at most
## this long per editor frame.
const INDEX_CHUNK := 8
const INDEX_BUDGET_USEC := 4000
## True until the player holds every keyframe.
var indexing := false
var playing := false
var play_clock := 0.0
var steps_per_second := 60.0

var open_button: Button
var recent: OptionButton
var refresh_button: Button
var back_button: Button
var play_button: Button
var forward_button: Button
var speed: OptionButton
var step_label: Label
var hash_label: Label
var verify_button: Button
var diff_button: Button
var contacts_toggle: CheckBox
var timeline: HSlider
var view: ReplayView
var file_label: Label
var status_label: Label
var body_label: Label
var diff_list: ItemList
var dialog: EditorFileDialog
var dialog_purpose := ""


func _init() -> void:
	name = "ReplayDock"
	size_flags_vertical = Control.SIZE_EXPAND_FILL
	custom_minimum_size = Vector2(0, 260)
	# A flow container: on a narrow panel the tools wrap instead of widening the dock.
	var bar := HFlowContainer.new()
	add_child(bar)
	open_button = tool_button(bar, "OpenButton", "Open a replay file (.m3replay)")
	open_button.text = "Open…"
	open_button.pressed.connect(ask_file.bind("open"))
	recent = OptionButton.new()
	recent.name = "Recent"
	recent.tooltip_text = "Recordings saved under %s/" % REPLAY_DIR
	recent.custom_minimum_size.x = 200
	recent.fit_to_longest_item = false
	recent.item_selected.connect(_on_recent_selected)
	bar.add_child(recent)
	refresh_button = tool_button(bar, "RefreshButton", "Look for new recordings in %s/" % REPLAY_DIR)
	refresh_button.pressed.connect(list_recordings)
	bar.add_child(VSeparator.new())
	back_button = tool_button(bar, "BackButton", "Step back (one step)")
	back_button.pressed.connect(step_by.bind(-1))
	play_button = tool_button(bar, "PlayButton", "Play / pause")
	play_button.toggle_mode = true
	play_button.toggled.connect(set_playing)
	forward_button = tool_button(bar, "ForwardButton", "Step forward (one step)")
	forward_button.pressed.connect(step_by.bind(1))
	speed = OptionButton.new()
	speed.name = "Speed"
	speed.tooltip_text = "Playback speed"
	for s in SPEEDS:
		speed.add_item("%s×" % s)
	speed.select(SPEEDS.find(1.0))
	bar.add_child(speed)
	bar.add_child(VSeparator.new())
	step_label = Label.new()
	step_label.name = "StepLabel"
	bar.add_child(step_label)
	hash_label = Label.new()
	hash_label.name = "HashLabel"
	hash_label.tooltip_text = "State hash at this step (as `m3replay hashes` prints it)"
	hash_label.mouse_filter = Control.MOUSE_FILTER_PASS
	bar.add_child(hash_label)
	bar.add_child(VSeparator.new())
	contacts_toggle = CheckBox.new()
	contacts_toggle.name = "ContactsToggle"
	contacts_toggle.text = "Contacts"
	contacts_toggle.toggled.connect(_on_contacts_toggled)
	bar.add_child(contacts_toggle)
	verify_button = tool_button(bar, "VerifyButton", "Replay to the end and compare with the recorded final hash")
	verify_button.text = "Verify"
	verify_button.pressed.connect(verify)
	diff_button = tool_button(bar, "DiffButton", "Compare with a second recording: jump to the step where they part")
	diff_button.text = "Diff…"
	diff_button.pressed.connect(ask_file.bind("diff"))

	timeline = HSlider.new()
	timeline.name = "Timeline"
	timeline.step = 1
	timeline.min_value = 0
	timeline.max_value = 0
	timeline.tooltip_text = "Timeline: every step of the replay"
	timeline.value_changed.connect(_on_timeline_changed)
	add_child(timeline)

	var split := HSplitContainer.new()
	split.size_flags_vertical = Control.SIZE_EXPAND_FILL
	add_child(split)
	view = ReplayView.new()
	view.name = "ReplayView"
	view.body_picked.connect(select_body)
	split.add_child(view)
	# The side panel's labels trim rather than grow it, so the view keeps its size
	# whatever they say.
	var side := VBoxContainer.new()
	side.custom_minimum_size.x = 390
	split.add_child(side)
	file_label = Label.new()
	file_label.name = "FileLabel"
	file_label.text = "No replay open."
	file_label.text_overrun_behavior = TextServer.OVERRUN_TRIM_ELLIPSIS
	side.add_child(file_label)
	status_label = Label.new()
	status_label.name = "StatusLabel"
	status_label.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	side.add_child(status_label)
	body_label = Label.new()
	body_label.name = "BodyLabel"
	body_label.text = "Click a body in the view."
	body_label.text_overrun_behavior = TextServer.OVERRUN_TRIM_ELLIPSIS
	side.add_child(body_label)
	diff_list = ItemList.new()
	diff_list.name = "DiffList"
	diff_list.size_flags_vertical = Control.SIZE_EXPAND_FILL
	diff_list.tooltip_text = "Bodies that differ at the parting step, worst first"
	diff_list.item_selected.connect(_on_diff_item_selected)
	side.add_child(diff_list)
	update_controls()


func _ready() -> void:
	steps_per_second = float(ProjectSettings.get_setting("physics/common/physics_ticks_per_second", 60))
	apply_theme()
	list_recordings()


func _notification(what: int) -> void:
	if what == NOTIFICATION_THEME_CHANGED and is_node_ready():
		apply_theme()


func tool_button(parent: Control, node_name: String, tip: String) -> Button:
	var b := Button.new()
	b.name = node_name
	b.flat = true
	b.tooltip_text = tip
	parent.add_child(b)
	return b


## The editor's theme (its colours and icons); Godot's default one outside the editor.
func editor_theme() -> Theme:
	if Engine.is_editor_hint():
		var t := EditorInterface.get_editor_theme()
		if t != null:
			return t
	return ThemeDB.get_default_theme()


func apply_theme() -> void:
	var t := editor_theme()
	var icon := func(n: String) -> Texture2D:
		return t.get_icon(n, "EditorIcons") if t.has_icon(n, "EditorIcons") else null
	open_button.icon = icon.call("Load")
	refresh_button.icon = icon.call("Reload")
	back_button.icon = icon.call("PlayStartBackwards")
	forward_button.icon = icon.call("PlayStart")
	play_button.icon = icon.call("Pause" if playing else "Play")
	verify_button.icon = icon.call("StatusSuccess")
	diff_button.icon = icon.call("Compare")
	var mono := t.get_font("source", "EditorFonts") if t.has_font("source", "EditorFonts") else null
	if mono != null:
		hash_label.add_theme_font_override("font", mono)
		body_label.add_theme_font_override("font", mono)
		step_label.add_theme_font_override("font", mono)
	if t.has_color("accent_color", "Editor"):
		var accent := t.get_color("accent_color", "Editor")
		var base := t.get_color("base_color", "Editor")
		var font := t.get_color("font_color", "Editor")
		# Opaque: some of the theme's colours (dark_color_*, font_color) are overlays.
		var palette := {
			"background": base.darkened(0.35),
			"static": base.lerp(font, 0.3),
			"kinematic": t.get_color("success_color", "Editor"),
			"dynamic": accent,
			"sleeping": accent.lerp(base, 0.6),
			"selected": t.get_color("warning_color", "Editor"),
			"differing": t.get_color("error_color", "Editor"),
			"contact": t.get_color("warning_color", "Editor").lightened(0.3),
		}
		for k in palette:
			palette[k].a = 1.0
		view.set_palette(palette)
	refresh()


func status_colour(ok: bool) -> Color:
	var t := editor_theme()
	var n := "success_color" if ok else "error_color"
	if t.has_color(n, "Editor"):
		return t.get_color(n, "Editor")
	return get_theme_color("font_color", "Label")


## Fills the list of recordings the project saved (Maul3DRecorder writes them there).
func list_recordings() -> void:
	recent.clear()
	recent.add_item("Recordings (%s)" % REPLAY_DIR)
	recent.set_item_disabled(0, true)
	var files := PackedStringArray()
	if DirAccess.dir_exists_absolute(REPLAY_DIR):
		for f in DirAccess.get_files_at(REPLAY_DIR):
			if f.ends_with(".m3replay"):
				files.append(f)
	files.sort()
	# Newest names last; most recorders name files by time.
	for i in range(files.size() - 1, -1, -1):
		recent.add_item(files[i])
		recent.set_item_metadata(recent.item_count - 1, REPLAY_DIR.path_join(files[i]))
	if files.is_empty():
		recent.add_item("(none yet)")
		recent.set_item_disabled(1, true)
	recent.select(0)


func _on_recent_selected(index: int) -> void:
	var path = recent.get_item_metadata(index)
	if path is String:
		open_replay(path)
	recent.select(0)


func ask_file(purpose: String) -> void:
	if dialog == null:
		dialog = EditorFileDialog.new()
		dialog.file_mode = EditorFileDialog.FILE_MODE_OPEN_FILE
		dialog.access = EditorFileDialog.ACCESS_FILESYSTEM
		dialog.add_filter("*.m3replay", "Maul3D replays")
		dialog.file_selected.connect(_on_file_selected)
		add_child(dialog)
	dialog_purpose = purpose
	dialog.title = "Open a replay" if purpose == "open" else "Diff with a second replay"
	if DirAccess.dir_exists_absolute(REPLAY_DIR):
		dialog.current_dir = ProjectSettings.globalize_path(REPLAY_DIR)
	dialog.popup_file_dialog()


func _on_file_selected(path: String) -> void:
	if dialog_purpose == "diff":
		diff_with(path)
	else:
		open_replay(path)


## Opens a replay (res://, user:// or an absolute path) at step 0. False, with the
## player's message shown, when it cannot.
func open_replay(path: String) -> bool:
	set_playing(false)
	var p: RefCounted = ClassDB.instantiate("Maul3DReplayPlayer")
	if not p.load_file(path):
		show_status("Cannot open %s: %s" % [path, p.get_last_error()], false)
		return false
	player = p
	replay_path = path
	other = null
	view.differing_slots = {}
	view.selected_slot = -1
	diff_list.clear()
	file_label.text = path.get_file()
	file_label.tooltip_text = path
	timeline.max_value = player.get_step_count()
	show_status("%d steps, keyframe every %d steps." % [player.get_step_count(), player.get_keyframe_every()], true)
	status_label.remove_theme_color_override("font_color")
	seek(0)
	view.frame_all()
	update_controls()
	indexing = true
	set_process(true)
	return true


## Takes the replay's keyframes a few steps at a time, within INDEX_BUDGET_USEC per
## frame, so that a jump anywhere on the timeline never waits on a long replay.
func index_a_little() -> void:
	var start := Time.get_ticks_usec()
	while Time.get_ticks_usec() - start < INDEX_BUDGET_USEC:
		if player.index_ahead(INDEX_CHUNK):
			indexing = false
			return
		if not player.get_last_error().is_empty():
			show_status("Indexing failed: %s" % player.get_last_error(), false)
			indexing = false
			return


## Shows step `step` (clamped to the replay).
func seek(step: int) -> void:
	if player == null:
		return
	step = clampi(step, 0, player.get_step_count())
	if step != player.get_current_step() and not player.seek(step):
		show_status("Seek to step %d failed: %s" % [step, player.get_last_error()], false)
		set_playing(false)
	refresh()


func step_by(delta: int) -> void:
	if player == null:
		return
	set_playing(false)
	seek(player.get_current_step() + delta)


func set_playing(on: bool) -> void:
	if on and player != null and player.get_current_step() >= player.get_step_count():
		seek(0)
	playing = on and player != null
	play_clock = 0.0
	play_button.set_pressed_no_signal(playing)
	var t := editor_theme()
	var n := "Pause" if playing else "Play"
	play_button.icon = t.get_icon(n, "EditorIcons") if t.has_icon(n, "EditorIcons") else null
	set_process(playing or indexing)


func _process(delta: float) -> void:
	if indexing and player != null:
		index_a_little()
	if not playing or player == null:
		set_process(indexing)
		return
	play_clock += delta * SPEEDS[speed.selected] * steps_per_second
	var steps := int(play_clock)
	if steps <= 0:
		return
	play_clock -= steps
	var to := mini(player.get_current_step() + steps, player.get_step_count())
	if steps == 1:
		if not player.step_forward():
			show_status("Step failed: %s" % player.get_last_error(), false)
			set_playing(false)
		refresh()
	else:
		seek(to)
	if player.get_current_step() >= player.get_step_count():
		set_playing(false)


func _on_timeline_changed(value: float) -> void:
	seek(int(value))


func _on_contacts_toggled(on: bool) -> void:
	view.show_contacts = on
	refresh()


## Brings every label and the view to the player's current step.
func refresh() -> void:
	if player == null:
		step_label.text = "step – / –"
		hash_label.text = "hash –"
		return
	var step: int = player.get_current_step()
	timeline.set_value_no_signal(step)
	step_label.text = "step %d / %d" % [step, player.get_step_count()]
	hash_label.text = "hash %s" % player.hash_at_current()
	view.show_step(player)
	show_body()


func update_controls() -> void:
	var none := player == null
	for c in [back_button, play_button, forward_button, verify_button, diff_button, timeline, contacts_toggle]:
		if c is BaseButton:
			c.disabled = none
		else:
			c.editable = not none
	refresh()


func select_body(slot: int) -> void:
	view.selected_slot = slot
	refresh()


func show_body() -> void:
	var slot := view.selected_slot
	if slot < 0 or player == null:
		body_label.text = "Click a body in the view."
		return
	var b: Dictionary = player.get_body(slot)
	if b.is_empty():
		body_label.text = "slot %d: no live body at this step" % slot
		return
	var q: Quaternion = b.rotation
	var e: Vector3 = q.get_euler() * (180.0 / PI)
	body_label.text = "slot %d  %s%s\nposition  %s\nrotation  %s\n  (euler °  %s)\nlinear v  %s\nangular v %s" % [
		slot, b.type, "  sleeping" if b.sleeping else "",
		vec(b.position), "(%.4f, %.4f, %.4f, %.4f)" % [q.x, q.y, q.z, q.w], vec(e, 2),
		vec(b.linear_velocity), vec(b.angular_velocity)]


func vec(v: Vector3, digits := 4) -> String:
	var f := "%." + str(digits) + "f"
	return ("(" + f + ", " + f + ", " + f + ")") % [v.x, v.y, v.z]


func show_status(text: String, ok: bool) -> void:
	status_label.text = text
	status_label.add_theme_color_override("font_color", status_colour(ok))


## Replays to the end and compares with the recorded final hash; then back to this step.
func verify() -> Dictionary:
	if player == null:
		return {}
	set_playing(false)
	var step: int = player.get_current_step()
	var r: Dictionary = player.verify()
	if r.ok:
		show_status("Verify: ok, final hash %s" % r.replayed, true)
	elif not str(r.error).is_empty():
		show_status("Verify: %s" % r.error, false)
	else:
		show_status("Verify: MISMATCH, recorded %s, replayed %s" % [r.recorded, r.replayed], false)
	player.seek(step)
	refresh()
	return r


## Compares the open replay with the one at `path`: jumps to the step where they part and
## highlights and lists the bodies that differ there, worst first.
func diff_with(path: String) -> Dictionary:
	if player == null:
		return {}
	set_playing(false)
	var o: RefCounted = ClassDB.instantiate("Maul3DReplayPlayer")
	if not o.load_file(path):
		show_status("Cannot open %s: %s" % [path, o.get_last_error()], false)
		return {}
	other = o
	var r: Dictionary = player.diff(o, DIFF_ROWS)
	diff_list.clear()
	view.differing_slots = {}
	match str(r.result):
		"agree":
			show_status("Diff with %s: the recordings agree at every one of %d steps." % [path.get_file(), r.steps_a], true)
		"length":
			show_status("Diff with %s: the same states as far as both go, but %d steps against %d." % [path.get_file(), r.steps_a, r.steps_b], false)
		"part":
			show_status("Diff with %s: they part at step %d (hash %s against %s); %d bodies differ." % [path.get_file(), r.step, r.hash_a, r.hash_b, r.differing], false)
			for row in r.bodies:
				view.differing_slots[int(row.slot)] = true
				var alive := ""
				if not row.alive_in_a or not row.alive_in_b:
					alive = "  only in %s" % ("A" if row.alive_in_a else "B")
				diff_list.add_item("slot %d  position %s  rotation %s  velocity %s%s" % [row.slot, String.num_scientific(row.position_error), String.num_scientific(row.rotation_error), String.num_scientific(row.velocity_error), alive])
				diff_list.set_item_metadata(diff_list.item_count - 1, int(row.slot))
		_:
			show_status("Diff with %s failed: %s" % [path.get_file(), r.error], false)
	refresh()
	return r


func _on_diff_item_selected(index: int) -> void:
	select_body(int(diff_list.get_item_metadata(index)))
