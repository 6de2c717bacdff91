extends "res://compare_case.gd"
# A SoftBody3D pressure ball (a SphereMesh of radius 0.5, 16 segments × 8 rings; pressure
# coefficient 20, stiffness 0.9, total mass 1 kg — set, since Jolt's default is 1 kg per
# vertex) dropped from 2 m onto a floor lands, bounces and keeps its volume. Over 2.5 s:
# its volume at the end (over the mesh's own) within 0.06 of Jolt's, its smallest (on
# landing) no more than 0.05 under Jolt's, its first touch within 2 ticks of Jolt's, and
# a bounce on both (Maul3D's is higher: 0.66 m against Jolt's 0.31 m). Godot Physics is
# measured, not judged (its particles pass through the floor at these settings). At
# Godot's default damping (0.01) both engines' balls keep rolling after the bounce; the
# ball coming to rest is cmp_soft_ball_rest.gd.

const S := preload("res://soft_bodies.gd")


func run() -> void:
	static_box(Vector3(10, 0.5, 10), Vector3(0, -0.5, 0))
	var sb := S.ball(0.5, 16, 8, Vector3(0, 2, 0))
	sb.pressure_coefficient = 20.0
	sb.linear_stiffness = 0.9
	sb.total_mass = 1.0
	add_child(sb)
	var rest := S.rest_volume(sb)
	var smallest := INF
	var touched := -1
	var bounce := -INF
	for t in 150:
		await ticks(1)
		var ps := S.points(sb)
		var y := S.lowest(ps)
		smallest = minf(smallest, S.volume(sb, ps))
		if touched < 0 and y < 0.05:
			touched = t
		if touched >= 0 and t > touched + 5:
			bounce = maxf(bounce, y)
	var ps := S.points(sb)
	values = {
		"volume_kept": S.volume(sb, ps) / rest,
		"smallest_volume": smallest / rest,
		"touched_tick": touched,
		"bounce": bounce,
		"centre_y": S.centre(ps).y,
	}
	# The figures README quotes, per engine.
	print("  %s %s: %s" % [get_script().resource_path.get_file(), ProjectSettings.get_setting("physics/3d/physics_engine"), JSON.stringify(values)])


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	var j: Dictionary = by["Jolt Physics"]
	if m.is_empty() or j.is_empty():
		return out
	for p in [near("volume at rest vs Jolt", m.volume_kept, j.volume_kept, 0.06),
			near("first touch tick vs Jolt", m.touched_tick, j.touched_tick, 2)]:
		if p != "":
			out.append(p)
	# Squashed on landing no more than Jolt's (less is fine: Maul3D's keeps more).
	if m.smallest_volume < j.smallest_volume - 0.05:
		out.append("smallest volume %.3f vs Jolt's %.3f: squashed more (tolerance 0.05)" % [m.smallest_volume, j.smallest_volume])
	if m.bounce < 0.05 or j.bounce < 0.05:
		out.append("a ball did not bounce (its lowest point rose to %.3f m, Jolt's %.3f m)" % [m.bounce, j.bounce])
	return out
