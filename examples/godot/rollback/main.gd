extends Node3D
# Rollback netcode in stock Godot with Maul3D (README "Rollback in Godot").
#
# Two players push boxes. Player 1 is local (arrow keys / WASD, or a bot when no key is
# held); player 2 is remote: its inputs arrive DELAY ticks late, as over a network. Every
# physics frame the game
#   1. takes the local input of the new tick and the remote input that just arrived
#      (the one of tick now - DELAY),
#   2. rolls back to tick now - DELAY (the oldest tick whose input changed: until now it
#      was simulated with a predicted remote input, the last one known),
#   3. resimulates to now + 1 with the inputs it knows and predictions for the rest.
# That is DELAY + 1 steps a frame, all through Maul3D.step_space inside one frame, the
# space in manual step mode (Maul3DRollback owns every step).
#
# A second world (not shown) plays the same game with every input on time, one step a
# tick: at each confirmed tick (every input known) the rolled-back world's hash must be
# the reference world's. The screen shows the hash, the check and the rollback figures.
#
# Headless: godot --headless --path examples/godot/rollback -- --quit-after-ticks=300
# prints a summary line and quits non-zero when a confirmed tick's hash differed.

const DELAY := 6
const DT := 1.0 / 60.0
const PUSH := 30.0

var rollback: Maul3DRollback
var players: Array = []
var reference: SubViewport
var reference_players: Array = []
var label: Label

## Inputs by tick: the local player's, and the remote player's as sent (they reach us
## DELAY ticks later).
var local_inputs: Array[Vector2] = []
var remote_sent: Array[Vector2] = []

var quit_after := -1
var checked := 0
var mismatches := 0
var mispredicted := 0
var steps := 0
var rollbacks := 0


func _ready() -> void:
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--quit-after-ticks="):
			quit_after = int(a.get_slice("=", 1))
	reference = SubViewport.new()
	reference.world_3d = World3D.new()
	reference.render_target_update_mode = SubViewport.UPDATE_DISABLED
	add_child(reference)
	Maul3D.set_space_manual_step(reference.world_3d.space, true)
	players = build_arena(self, true)
	reference_players = build_arena(reference, false)
	rollback = Maul3DRollback.new()
	rollback.capacity = 32
	rollback.delta = DT
	add_child(rollback)
	add_view()
	# Tick 0: the arena as built.
	rollback.capture(0)


func _physics_process(_delta: float) -> void:
	var now := rollback.get_current_tick()
	local_inputs.append(local_input(now))
	remote_sent.append(remote_input(now))
	var arrived := now - DELAY
	var from := maxi(arrived, 0)
	if from < now:
		# Tick `from` ran so far with the input before it as its prediction.
		if arrived >= 1 and remote_sent[arrived] != remote_sent[arrived - 1]:
			mispredicted += 1
		rollback.rollback_to(from)
		rollbacks += 1
	rollback.resimulate(now + 1, apply_inputs)
	steps = now + 1 - from
	# The reference world: tick `arrived` with every input on time.
	if arrived >= 0:
		apply_to(reference_players, local_inputs[arrived], remote_sent[arrived])
		Maul3D.step_space(reference.world_3d.space, DT)
		var ours: int = rollback.get_tick_hash(arrived + 1)
		var theirs: int = Maul3D.space_hash(reference.world_3d.space)
		checked += 1
		if ours != theirs:
			mismatches += 1
			push_error("tick %d: the rolled-back world hashes %s, the reference %s" % [arrived + 1, hex(ours), hex(theirs)])
	show_figures(now + 1, arrived + 1)
	if quit_after >= 0 and now + 1 >= quit_after:
		print("rollback example: %d ticks, %d rollbacks, %d steps a frame, %d mispredicted remote inputs, %d confirmed ticks checked, %d mismatches, hash %s" % [now + 1, rollbacks, steps, mispredicted, checked, mismatches, hex(Maul3D.space_hash(rollback.get_target_space()))])
		get_tree().quit(1 if mismatches > 0 or checked == 0 else 0)


## The input callable of Maul3DRollback.resimulate: tick `tick`'s inputs, the remote
## one predicted where it has not arrived yet.
func apply_inputs(tick: int) -> void:
	apply_to(players, local_inputs[tick], remote_or_predicted(tick))


func apply_to(pair: Array, one: Vector2, two: Vector2) -> void:
	pair[0].apply_central_force(Vector3(one.x, 0, one.y) * PUSH)
	pair[1].apply_central_force(Vector3(two.x, 0, two.y) * PUSH)


## The remote input of `tick` as this side knows it now: the one that arrived, or the
## prediction (the last one that arrived) where it has not yet.
func remote_or_predicted(tick: int) -> Vector2:
	var known := local_inputs.size() - 1 - DELAY
	if tick <= known:
		return remote_sent[tick]
	return remote_sent[known] if known >= 0 else Vector2.ZERO


func local_input(tick: int) -> Vector2:
	var keys := Input.get_vector("ui_left", "ui_right", "ui_up", "ui_down")
	if keys != Vector2.ZERO:
		return keys
	# A bot: circles around the boxes.
	var a := tick * 0.03
	return Vector2(cos(a), sin(a))


## The remote player: a bot that picks a new heading every 25 ticks (so predictions go
## wrong now and then), toward the boxes more often than not.
func remote_input(tick: int) -> Vector2:
	var rng := RandomNumberGenerator.new()
	rng.seed = 1000 + tick / 25
	var a := rng.randf_range(-PI, PI)
	return Vector2(cos(a), sin(a)) * 0.5 + Vector2(-0.6, 0)


## The arena: a floor, walls, nine boxes, two players (capsules that do not tip). Built
## the same call for call in both worlds, so they start with the same hash.
func build_arena(parent: Node, visible_meshes: bool) -> Array:
	body(parent, StaticBody3D.new(), Vector3(0, -0.5, 0), box_shape(Vector3(8, 0.5, 8)), visible_meshes)
	for w in [Vector3(8.5, 1, 0), Vector3(-8.5, 1, 0)]:
		body(parent, StaticBody3D.new(), w, box_shape(Vector3(0.5, 1, 8)), visible_meshes)
	for w in [Vector3(0, 1, 8.5), Vector3(0, 1, -8.5)]:
		body(parent, StaticBody3D.new(), w, box_shape(Vector3(8, 1, 0.5)), visible_meshes)
	for i in 9:
		var p := Vector3((i % 3) * 0.9 - 0.9, 0.4, (i / 3) * 0.9 - 0.9)
		var b := RigidBody3D.new()
		b.mass = 0.5
		body(parent, b, p, box_shape(Vector3(0.4, 0.4, 0.4)), visible_meshes)
	var out := []
	for p in [Vector3(-4, 0.6, 0), Vector3(4, 0.6, 0)]:
		var pl := RigidBody3D.new()
		pl.mass = 2.0
		pl.axis_lock_angular_x = true
		pl.axis_lock_angular_y = true
		pl.axis_lock_angular_z = true
		pl.linear_damp = 2.0
		var cap := CapsuleShape3D.new()
		cap.radius = 0.35
		cap.height = 1.2
		body(parent, pl, p, cap, visible_meshes)
		out.append(pl)
	return out


func box_shape(half: Vector3) -> BoxShape3D:
	var s := BoxShape3D.new()
	s.size = half * 2.0
	return s


func body(parent: Node, b: PhysicsBody3D, pos: Vector3, shape: Shape3D, visible_meshes: bool) -> void:
	var cs := CollisionShape3D.new()
	cs.shape = shape
	b.add_child(cs)
	if visible_meshes:
		var m := MeshInstance3D.new()
		if shape is BoxShape3D:
			var bm := BoxMesh.new()
			bm.size = shape.size
			m.mesh = bm
		else:
			var cm := CapsuleMesh.new()
			cm.radius = shape.radius
			cm.height = shape.height
			m.mesh = cm
		b.add_child(m)
	b.position = pos
	parent.add_child(b)


func add_view() -> void:
	var cam := Camera3D.new()
	cam.position = Vector3(0, 12, 10)
	add_child(cam)
	cam.look_at(Vector3.ZERO)
	var sun := DirectionalLight3D.new()
	sun.rotation = Vector3(-1.0, 0.6, 0)
	add_child(sun)
	var layer := CanvasLayer.new()
	label = Label.new()
	label.position = Vector2(12, 12)
	layer.add_child(label)
	add_child(layer)


func show_figures(tick: int, confirmed: int) -> void:
	label.text = "tick %d   hash %s\nconfirmed tick %d: %d of %d checked match the reference world\nrollback %d ticks a frame (%d steps), input delay %d ticks, %d mispredicted remote inputs" % [
		tick, hex(Maul3D.space_hash(rollback.get_target_space())), confirmed, checked - mismatches, checked, DELAY, steps, DELAY, mispredicted]


func hex(h: int) -> String:
	return "%08x%08x" % [(h >> 32) & 0xffffffff, h & 0xffffffff]
