extends "res://compare_case.gd"
# Helpers of the cmp_scaled_body_* cases (issue 14 item 1): bodies whose node carries the
# scale, with shapes of unscaled size under them, and a box dropped onto them.


## A CollisionShape3D holding `shape` at `xf` in its body.
func shape_node(shape: Shape3D, xf := Transform3D.IDENTITY) -> CollisionShape3D:
	var s := CollisionShape3D.new()
	s.shape = shape
	s.transform = xf
	return s


## A static body with one shape, its node scaled by `scale` (and turned by `basis`).
func scaled_static(shape: Shape3D, scale: Vector3, at := Vector3.ZERO,
		basis := Basis.IDENTITY, shape_xf := Transform3D.IDENTITY) -> StaticBody3D:
	var b := StaticBody3D.new()
	b.add_child(shape_node(shape, shape_xf))
	b.transform = Transform3D(basis.scaled_local(scale), at)
	add_child(b)
	return b


## A 2 × 0.1 × 2 box (the floors' shape before their body's scale).
func thin_box() -> BoxShape3D:
	var box := BoxShape3D.new()
	box.size = Vector3(2, 0.1, 2)
	return box


## Drops a 1 m box at `at`, waits `n` ticks and returns the values a floor case compares:
## where it rests, when it first came within 0.1 m above `surface_y` + 0.5, and its speed.
func drop_box(at: Vector3, surface_y: float, n := 150) -> Dictionary:
	var box := rigid_box(Vector3(0.5, 0.5, 0.5), at)
	var landed := -1
	for t in n:
		await ticks(1)
		if landed < 0 and box.global_position.y < surface_y + 0.6:
			landed = t
	return {"rest_x": box.global_position.x, "rest_y": box.global_position.y,
		"rest_z": box.global_position.z, "landed_tick": landed,
		"speed": box.linear_velocity.length()}


## Maul3D's rest height and landing tick against `engines`' (tolerances in m and ticks).
func judge_rest(by: Dictionary, engines: Array, tol_y := 0.03, tol_tick := 4) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	if m.is_empty():
		return out
	for e in engines:
		var r: Dictionary = by[e]
		if r.is_empty():
			continue
		for p in [near("rest height vs " + e, m.rest_y, r.rest_y, tol_y),
				near("rest x vs " + e, m.rest_x, r.rest_x, 0.05),
				near("landing tick vs " + e, m.landed_tick, r.landed_tick, tol_tick)]:
			if p != "":
				out.append(p)
	return out
