extends Node3D
# The comparison pass (run by test/godot/compare.sh, once per physics engine): runs every
# case in res://compare/ (cmp_*.gd, extending res://compare_case.gd) and writes the values
# each measured to $MAUL3D_COMPARE_DIR/<engine>.json. Under Maul3D it then reads the other
# engines' files and judges each case, printing one line per case and `N passed, M
# failed`, and quits non-zero when any failed. MAUL3D_GODOT_TEST=word runs only the cases
# whose file name contains it.

const ENGINES := ["GodotPhysics3D", "Jolt Physics", "Maul3D"]


func _ready() -> void:
	await get_tree().process_frame
	var engine: String = ProjectSettings.get_setting("physics/3d/physics_engine")
	var dir := OS.get_environment("MAUL3D_COMPARE_DIR")
	var filter := OS.get_environment("MAUL3D_GODOT_TEST")
	var results := {}
	for file in _case_files():
		if filter != "" and not file.contains(filter):
			continue
		var case: Node3D = load("res://compare/" + file).new()
		add_child(case)
		await case.run()
		results[file] = case.values
		case.queue_free()
		await get_tree().physics_frame
	var out := FileAccess.open(dir.path_join(engine + ".json"), FileAccess.WRITE)
	out.store_string(JSON.stringify(results))
	out.close()
	if engine != "Maul3D":
		print("COMPARE %s: %d cases measured" % [engine, results.size()])
		get_tree().quit(0)
		return
	get_tree().quit(_judge(dir, results, filter != ""))


## Judges every case Maul3D ran; with a name filter, none matching is no failure.
func _judge(dir: String, maul: Dictionary, filtered: bool) -> int:
	var by_engine := {"Maul3D": maul}
	for e in ENGINES:
		if e == "Maul3D":
			continue
		var text := FileAccess.get_file_as_string(dir.path_join(e + ".json"))
		var parsed = JSON.parse_string(text)
		by_engine[e] = parsed if parsed is Dictionary else {}
	var passed := 0
	var failed := 0
	if not Maul3D.is_active():
		print("FAIL Maul3D is not the running physics server")
		failed += 1
	for file in maul.keys():
		var values := {}
		for e in by_engine.keys():
			values[e] = by_engine[e].get(file, {})
		var case: Node3D = load("res://compare/" + file).new()
		var problems: PackedStringArray = case.judge(values)
		case.free()
		for e in ENGINES:
			if values[e].is_empty():
				problems.append("no values from " + e)
		if problems.is_empty():
			passed += 1
			print("ok   ", file)
		else:
			failed += 1
			print("FAIL ", file)
			for p in problems:
				print("       ", p)
			for e in ENGINES:
				print("       ", e, ": ", JSON.stringify(values[e]))
	print("%d passed, %d failed" % [passed, failed])
	return 1 if failed > 0 or (passed == 0 and not filtered) else 0


func _case_files() -> PackedStringArray:
	var files := PackedStringArray()
	for f in DirAccess.get_files_at("res://compare"):
		if f.begins_with("cmp_") and f.ends_with(".gd"):
			files.append(f)
	files.sort()
	return files
