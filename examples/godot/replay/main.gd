extends Node3D
# A scene on Maul3D with a Maul3DRecorder (README.md): a ball knocks over a pyramid of
# boxes while a capsule, a cylinder and a second ball fall and roll. The recorder (child
# "Recorder") records the physics space from its _ready and writes
# user://maul3d_replays/replay-example.m3replay when the scene ends; the editor's
# "Maul3D Replay" dock lists and plays it.
#
# Headless: godot --headless --path examples/godot/replay -- --quit-after-ticks=300
# quits after 300 physics ticks, saves the recording (to the path of
# `--save-replay=<path>` if given, else as the recorder's file_name says) and prints
# `replay: <absolute path>` and a summary line; it quits non-zero when nothing was saved.

var quit_after := -1
var save_to := ""
var ticks := 0

@onready var recorder: Maul3DRecorder = $Recorder


func _ready() -> void:
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--quit-after-ticks="):
			quit_after = int(a.get_slice("=", 1))
		elif a.begins_with("--save-replay="):
			save_to = a.get_slice("=", 1)
	$Camera.look_at(Vector3(0, 1, 0))
	if not Maul3D.is_active():
		push_error("Maul3D is not the physics server: set Project Settings > Physics > 3D > Physics Engine to Maul3D")


func _physics_process(_delta: float) -> void:
	ticks += 1
	if quit_after >= 0 and ticks >= quit_after:
		quit_after = -1
		var h := Maul3D.space_hash(get_world_3d().space)
		var path := recorder.save(save_to)
		if not path.is_empty():
			print("replay: ", ProjectSettings.globalize_path(path))
		print("replay example: %d ticks, %d bodies, hash %s, saved %s" % [ticks, $Bodies.get_child_count(), "%08x%08x" % [(h >> 32) & 0xffffffff, h & 0xffffffff], path if not path.is_empty() else "nothing"])
		get_tree().quit(0 if not path.is_empty() else 1)
