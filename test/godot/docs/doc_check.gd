@tool
extends Node
# Opens the editor help page of each Maul3D class (as the user does with F1) and checks
# that its doc comments are there: a sentence of each class, and no member "without a
# description". Prints `docs: ok` or `docs: FAIL ...` and quits with 0 or 1.

## A sentence from each class's doc comment (as the help page renders it).
const EXPECTED := {
	"Maul3D": "What GDScript needs of Maul3D beyond Godot's physics server interface",
	"Maul3DPhysicsServer": "Maul3D, a deterministic 3D physics engine, as Godot's 3D physics server.",
	"Maul3DRollback": "Rollback for netcode: keeps a ring of snapshots of one space",
	"Maul3DReplayPlayer": "opened for playing: seek to any step",
	"Maul3DRecorder": "Records the physics space of its World3D",
	"Maul3DCharacterBody3D": "A kinematic capsule character moved by Maul3D's own character mover",
	"Maul3DWaterVolume3D": "A box of water: rigid bodies in it float",
	"Maul3DVehicleBody3D": "A car (or any wheeled vehicle) simulated by Maul3D's vehicle model",
	"Maul3DVehicleWheel3D": "A wheel of a",
}


func _ready() -> void:
	if not Engine.is_editor_hint():
		return
	# Let the editor finish loading its docks.
	for i in 30:
		await get_tree().process_frame
	var failures := PackedStringArray()
	var se := EditorInterface.get_script_editor()
	for cls in EXPECTED:
		# On an editor's first start the extension's docs may reach the help a little after
		# the first pages open: a page without its description is opened again, up to
		# three times, before it counts as missing.
		var page := ""
		for attempt in 3:
			page = await _open_help(se, cls)
			if page.contains(EXPECTED[cls]):
				break
			for i in 60:
				await get_tree().process_frame
		if page == "":
			failures.append("%s: no help page opened" % cls)
			continue
		if not page.contains(EXPECTED[cls]):
			failures.append("%s: the class description is missing" % cls)
		for line in page.split("\n"):
			if line.contains("There is currently no description"):
				failures.append("%s: undocumented: %s" % [cls, line.strip_edges().left(120)])
		print("docs: %s: %d characters of help" % [cls, page.length()])
	if failures.is_empty():
		print("docs: ok")
	else:
		for f in failures:
			print("docs: FAIL ", f)
	get_tree().quit(0 if failures.is_empty() else 1)


## Opens the help page of class `cls` and returns its text once it has filled in ("" if
## no page opened).
func _open_help(se: Node, cls: String) -> String:
	se.goto_help("class_name:" + cls)
	# The page fills in over a few frames.
	var page := ""
	for i in 120:
		await get_tree().process_frame
		page = _help_page(se, cls)
		if page.contains("Method Descriptions") or page.contains("Property Descriptions") or i > 60 and page != "":
			break
	return page


## The text of the open help page of class `cls` ("" if none).
func _help_page(se: Node, cls: String) -> String:
	for n in se.find_children("*", "RichTextLabel", true, false):
		var text := (n as RichTextLabel).get_parsed_text()
		# The title line is "Class:", spacing (with a no-break space), the name.
		var title := text.get_slice("\n", 0)
		if title.begins_with("Class:") and title.get_slice(":", 1).replace("\u00a0", " ").strip_edges() == cls:
			return text
	return ""
