@tool
extends EditorPlugin
# The physics server is registered by the GDExtension itself (maul3d.gdextension), before
# any plugin runs; select it with Project Settings > Physics > 3D > Physics Engine = Maul3D
# (restart the editor). This plugin adds the "Maul3D Replay" dock to the bottom panel
# (an EditorDock in DOCK_SLOT_BOTTOM: Godot 4.6's dock API; add_control_to_bottom_panel
# is deprecated), and says loudly when the extension's library did not load, since Godot
# then quietly runs the project on another physics engine.

const DOCK_NAME := "Maul3DReplayDock"
const DOCK_TITLE := "Maul3D Replay"

var dock: EditorDock


func _enter_tree() -> void:
	dock = EditorDock.new()
	dock.name = DOCK_NAME
	dock.title = DOCK_TITLE
	dock.layout_key = "maul3d_replay"
	dock.icon_name = &"Animation"
	dock.default_slot = EditorDock.DOCK_SLOT_BOTTOM
	dock.available_layouts = EditorDock.DOCK_LAYOUT_HORIZONTAL | EditorDock.DOCK_LAYOUT_FLOATING
	var problem := library_problem()
	if problem.is_empty():
		# Loaded only now: the dock's scripts name the extension's classes, which do not
		# exist when the library failed to load.
		var script: Script = load(base_dir() + "/dock/replay_dock.gd")
		if script != null and script.can_instantiate():
			var content: Control = script.new()
			content.name = "ReplayDock"
			dock.add_child(content)
		else:
			problem = "Maul3D: the replay dock's script %s/dock/replay_dock.gd did not load (see the Output panel)." % base_dir()
	if not problem.is_empty():
		push_warning(problem)
		EditorInterface.get_editor_toaster().push_toast(problem, EditorToaster.SEVERITY_WARNING)
		var label := Label.new()
		label.name = "LibraryMissing"
		label.text = problem
		label.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
		label.add_theme_color_override("font_color", EditorInterface.get_editor_theme().get_color("warning_color", "Editor"))
		dock.add_child(label)
	add_dock(dock)


func _exit_tree() -> void:
	if dock != null:
		remove_dock(dock)
		dock.queue_free()
		dock = null


func base_dir() -> String:
	return get_script().resource_path.get_base_dir()


## "" when the Maul3D library is loaded; otherwise what a user needs to fix it: the
## platform, and the library file maul3d.gdextension names for it.
func library_problem() -> String:
	if ClassDB.class_exists("Maul3DReplayPlayer"):
		return ""
	var platform := "%s %s" % [OS.get_name(), Engine.get_architecture_name()]
	var ext_path := base_dir() + "/maul3d.gdextension"
	var file := library_for_platform(ext_path)
	var where := ("%s names %s for it" % [ext_path, file]) if not file.is_empty() else ("%s names no library for it" % ext_path)
	var found := "the file is missing" if not file.is_empty() and not FileAccess.file_exists(file) else "the file is there but did not load (see the Output panel)"
	if file.is_empty():
		found = "add one under [libraries]"
	return "Maul3D: the native library did not load on %s: %s; %s. Projects set to the Maul3D physics engine run on Godot's default engine instead." % [platform, where, found]


## The library file a .gdextension names for this platform: the entry of [libraries] whose
## feature tags all hold here, the one with the most tags winning (as Godot picks).
static func library_for_platform(ext_path: String) -> String:
	var cfg := ConfigFile.new()
	if cfg.load(ext_path) != OK or not cfg.has_section("libraries"):
		return ""
	var best := ""
	var best_tags := -1
	for key in cfg.get_section_keys("libraries"):
		var tags: PackedStringArray = key.split(".")
		var all := true
		for tag in tags:
			if not OS.has_feature(tag):
				all = false
				break
		if all and tags.size() > best_tags:
			best_tags = tags.size()
			best = str(cfg.get_value("libraries", key))
	return best
