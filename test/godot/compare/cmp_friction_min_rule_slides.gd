extends "res://compare_case.gd"
# Issue 14 item 5: friction combines as Godot's body pair does, the smaller of the two. A
# μ 0.5 box released on a μ 1 ramp at 30° (tan 30° ≈ 0.577) slides: Godot Physics and
# Jolt take μ 0.5 and accelerate it at g (sin θ − 0.5 cos θ); √(0.5 · 1) ≈ 0.71 would
# hold it still. Slide distance over 4 s against both engines and the closed form (with
# Godot's default linear damping).

const THETA := deg_to_rad(30.0)
const SECONDS := 4.0


func run() -> void:
	var basis := Basis(Vector3.BACK, -THETA)
	var n := basis * Vector3.UP
	var down := basis * Vector3.RIGHT
	var ramp := static_box(Vector3(40, 0.5, 4), Vector3.ZERO, basis)
	ramp.physics_material_override = material(1.0)
	var box := rigid_box(Vector3(0.5, 0.5, 0.5), n * 1.0 - down * 20.0, basis)
	box.physics_material_override = material(0.5)
	box.can_sleep = false
	await ticks(10)
	var p0 := box.global_position
	var v0 := box.linear_velocity.dot(down)
	await ticks(int(SECONDS * 60))
	var s := (box.global_position - p0).dot(down)
	# Under a = g (sin θ − μ cos θ) and the project's linear damping c (Godot's default
	# 0.1/s): v' = a − c v, so s = v0 (1 − e^(−ct))/c + (a/c) (t − (1 − e^(−ct))/c).
	var g := 9.8
	var a := g * (sin(THETA) - 0.5 * cos(THETA))
	var c: float = ProjectSettings.get_setting("physics/3d/default_linear_damp")
	var t := SECONDS
	var closed := v0 * t + 0.5 * a * t * t
	if c > 0.0:
		var k := (1.0 - exp(-c * t)) / c
		closed = v0 * k + a / c * (t - k)
	values = {"slide": s, "closed_form": closed}


func material(friction: float) -> PhysicsMaterial:
	var m := PhysicsMaterial.new()
	m.friction = friction
	return m


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	if m.is_empty():
		return out
	var p := near("slide vs closed form", m.slide, m.closed_form, 0.05 * m.closed_form)
	if p != "":
		out.append(p)
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty():
			continue
		p = near("slide vs " + e, m.slide, r.slide, 0.1 * r.slide)
		if p != "":
			out.append(p)
	return out
