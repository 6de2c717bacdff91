extends "res://test_case.gd"
# A value the core refuses, given through a Godot call that returns nothing, is pushed
# to Godot's error output naming the call (once per kind of error at that place, not
# every frame) and changes nothing.


## Collects the errors Godot logs while it is registered.
class ErrorLog extends Logger:
	var lines := PackedStringArray()
	var lock := Mutex.new()

	func _log_error(_function: String, _file: String, _line: int, code: String,
			rationale: String, _editor_notify: bool, _error_type: int,
			_script_backtraces: Array[ScriptBacktrace]) -> void:
		lock.lock()
		lines.append(code + " " + rationale)
		lock.unlock()

	## How many logged errors contain `text`.
	func count(text: String) -> int:
		lock.lock()
		var n := 0
		for l in lines:
			if l.contains(text):
				n += 1
		lock.unlock()
		return n


func _floating_box(pos: Vector3) -> RigidBody3D:
	var body := RigidBody3D.new()
	var cs := CollisionShape3D.new()
	cs.shape = BoxShape3D.new()
	body.add_child(cs)
	body.position = pos
	body.gravity_scale = 0.0
	add_child(body)
	return body


func test_a_refused_velocity_is_reported_once_naming_the_call_and_changes_nothing() -> void:
	var body := _floating_box(Vector3(-40, 60, 0))
	await ticks(2)
	var rid := body.get_rid()
	var lv := PhysicsServer3D.BODY_STATE_LINEAR_VELOCITY
	PhysicsServer3D.body_set_state(rid, lv, Vector3(1, 0, 0))
	var before: Vector3 = PhysicsServer3D.body_get_state(rid, lv)
	var hash_before: int = Maul3D.space_hash(space())
	var log := ErrorLog.new()
	OS.add_logger(log)
	for i in 3:
		PhysicsServer3D.body_set_state(rid, lv, Vector3(1e30, 0, 0))
	OS.remove_logger(log)
	check(log.count("body_set_state(LINEAR_VELOCITY)") == 1,
		"the refusal is reported once, naming body_set_state(LINEAR_VELOCITY) (%s)" % [log.lines])
	check(log.count("linear_velocity = 1e30") == 1, "the report carries the core's message (%s)" % [log.lines])
	var after: Vector3 = PhysicsServer3D.body_get_state(rid, lv)
	check(after == before, "the body keeps its velocity (%s, was %s)" % [after, before])
	check(Maul3D.space_hash(space()) == hash_before, "the refused calls changed nothing in the world")


func test_a_refused_friction_is_reported_once_naming_the_call_and_changes_nothing() -> void:
	var body := _floating_box(Vector3(-44, 60, 0))
	await ticks(2)
	var rid := body.get_rid()
	var fr := PhysicsServer3D.BODY_PARAM_FRICTION
	var before: float = PhysicsServer3D.body_get_param(rid, fr)
	var hash_before: int = Maul3D.space_hash(space())
	var log := ErrorLog.new()
	OS.add_logger(log)
	for i in 3:
		PhysicsServer3D.body_set_param(rid, fr, 1e9)
	OS.remove_logger(log)
	check(log.count("body_set_param(FRICTION)") == 1,
		"the refusal is reported once, naming body_set_param(FRICTION) (%s)" % [log.lines])
	var after: float = PhysicsServer3D.body_get_param(rid, fr)
	check(after == before, "the body keeps its friction (%f, was %f)" % [after, before])
	check(Maul3D.space_hash(space()) == hash_before, "the refused calls changed nothing in the world")
