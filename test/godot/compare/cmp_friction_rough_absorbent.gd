extends "res://compare_case.gd"
# Issue 14 item 5: PhysicsMaterial.rough and .absorbent change friction and bounce as
# Godot Physics' body pair does (friction |min(fa, fb)| with a rough body's friction
# negative; bounce clamp(ea + eb, 0, 1) with an absorbent body's bounce negative):
# - a rough μ 0.9 box on a μ 0.3 ramp at 30° keeps μ 0.9 and stays put;
# - a μ 0.9 box on a rough μ 0.2 ramp takes μ 0.2 and slides;
# - a ball of bounce 0.3 on a floor of bounce 0.4 rebounds at 0.7 (the sum);
# - a ball of bounce 0.8 on an absorbent floor of bounce 0.5 rebounds at 0.3.
# Compared with Godot Physics (Jolt's values are printed, not judged); a rebound as its
# restitution √(apex / drop), within 0.05 (engines differ by about one tick of gravity in
# when they take the approach speed).

const THETA := deg_to_rad(30.0)
const DROP := 5.0


func run() -> void:
	var basis := Basis(Vector3.BACK, -THETA)
	var down := basis * Vector3.RIGHT
	var rough_box := box_on_ramp(basis, Vector3(0, 0, 0), 0.3, false, 0.9, true)
	var on_rough := box_on_ramp(basis, Vector3(0, 0, 12), 0.2, true, 0.9, false)
	var sum_ball := ball_on_floor(Vector3(60, 0, 0), 0.4, false, 0.3)
	var absorbed := ball_on_floor(Vector3(60, 0, 12), 0.5, true, 0.8)
	await ticks(10)
	var p0: Vector3 = rough_box.global_position
	var p1: Vector3 = on_rough.global_position
	var apex := [0.0, 0.0]
	var up := [false, false]
	var balls := [sum_ball, absorbed]
	for t in 170:
		await ticks(1)
		for i in 2:
			var b: RigidBody3D = balls[i]
			if b.linear_velocity.y > 0.0:
				up[i] = true
			if up[i]:
				apex[i] = maxf(apex[i], b.global_position.y - 0.5)
	values = {
		"rough_box_slide": (rough_box.global_position - p0).dot(down),
		"on_rough_ramp_slide": (on_rough.global_position - p1).dot(down),
		"sum_apex": apex[0],
		"absorbent_apex": apex[1],
		"sum_e": sqrt(apex[0] / DROP),
		"absorbent_e": sqrt(apex[1] / DROP),
	}


func material(friction: float, rough: bool, bounce: float, absorbent: bool) -> PhysicsMaterial:
	var m := PhysicsMaterial.new()
	m.friction = friction
	m.rough = rough
	m.bounce = bounce
	m.absorbent = absorbent
	return m


func box_on_ramp(basis: Basis, at: Vector3, ramp_mu: float, ramp_rough: bool,
		box_mu: float, box_rough: bool) -> RigidBody3D:
	var n := basis * Vector3.UP
	var down := basis * Vector3.RIGHT
	var ramp := static_box(Vector3(20, 0.5, 3), at, basis)
	ramp.physics_material_override = material(ramp_mu, ramp_rough, 0.0, false)
	var box := rigid_box(Vector3(0.5, 0.5, 0.5), at + n * 1.0 - down * 10.0, basis)
	box.physics_material_override = material(box_mu, box_rough, 0.0, false)
	box.can_sleep = false
	return box


func ball_on_floor(at: Vector3, floor_bounce: float, absorbent: bool,
		ball_bounce: float) -> RigidBody3D:
	var floor := static_box(Vector3(3, 0.5, 3), at + Vector3(0, -0.5, 0))
	floor.physics_material_override = material(1.0, false, floor_bounce, absorbent)
	var b := RigidBody3D.new()
	var s := CollisionShape3D.new()
	var sphere := SphereShape3D.new()
	sphere.radius = 0.5
	s.shape = sphere
	b.add_child(s)
	b.position = at + Vector3(0, DROP + 0.5, 0)
	b.physics_material_override = material(1.0, false, ball_bounce, false)
	b.can_sleep = false
	add_child(b)
	return b


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	var r: Dictionary = by["GodotPhysics3D"]
	if m.is_empty() or r.is_empty():
		return out
	for p in [
		near("rough box slide vs GodotPhysics3D", m.rough_box_slide, r.rough_box_slide, 0.05),
		near("slide on a rough ramp vs GodotPhysics3D", m.on_rough_ramp_slide,
				r.on_rough_ramp_slide, 0.1 * absf(r.on_rough_ramp_slide)),
		near("rebound restitution, bounce 0.3 + 0.4, vs GodotPhysics3D", m.sum_e, r.sum_e,
				0.05),
		near("rebound restitution, bounce 0.8 on absorbent 0.5, vs GodotPhysics3D",
				m.absorbent_e, r.absorbent_e, 0.05),
	]:
		if p != "":
			out.append(p)
	return out
