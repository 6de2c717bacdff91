extends Node3D
# Runs every test in res://tests/ (files test_*.gd; each `func test_*()` is one test,
# awaited, so a test may wait for physics frames) in headless Godot with Maul3D, prints
# one line per test and `N passed, M failed`, and quits non-zero when any failed.
#
# A test script extends res://test_case.gd and calls `check(cond, message)`.

var passed := 0
var failed := 0


func _ready() -> void:
	# Run after the first frame so every server is up.
	await get_tree().process_frame
	var filter := OS.get_environment("MAUL3D_GODOT_TEST")
	for file in _test_files():
		var script: GDScript = load("res://tests/" + file)
		for method in script.get_script_method_list():
			var name: String = method["name"]
			if not name.begins_with("test_"):
				continue
			if filter != "" and not name.contains(filter):
				continue
			await _run(script, name)
	print("%d passed, %d failed" % [passed, failed])
	get_tree().quit(1 if failed > 0 or passed == 0 else 0)


func _test_files() -> PackedStringArray:
	var files := PackedStringArray()
	for f in DirAccess.get_files_at("res://tests"):
		if f.begins_with("test_") and f.ends_with(".gd"):
			files.append(f)
	files.sort()
	return files


func _run(script: GDScript, name: String) -> void:
	var case: Node3D = script.new()
	add_child(case)
	# Godot falls back to its default engine silently when the configured one is not
	# registered: every test asserts that Maul3D is the server it runs on.
	case.check(Maul3D.is_active(), "Maul3D is the running physics server (Maul3D.is_active())")
	await case.call(name)
	var failures: PackedStringArray = case.failures
	case.queue_free()
	await get_tree().physics_frame
	if failures.is_empty():
		passed += 1
		print("ok   ", name)
	else:
		failed += 1
		print("FAIL ", name)
		for f in failures:
			print("       ", f)
