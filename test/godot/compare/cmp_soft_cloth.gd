extends "res://compare_case.gd"
# A SoftBody3D cloth (a 2 m PlaneMesh of 12 × 12 cells; total mass 1 kg, set, since
# Jolt's default is 1 kg per vertex; Godot's default stiffness 0.5 and precision 5;
# damping 2 /s so that it settles in the 8 s) pinned at the two corners of one edge
# drapes under gravity and comes to rest: Maul3D's sag (the lowest point, the middle of
# the free edge) against Jolt's. Godot Physics' cloth is measured too, not judged: its
# damping is another quantity (at 2 its cloth barely sags).

const S := preload("res://soft_bodies.gd")


func run() -> void:
	var sb := S.cloth(2.0, 12, Vector3(0, 3, 0))
	sb.total_mass = 1.0
	sb.damping_coefficient = 2.0
	var pins := [S.vertex_near(sb, Vector3(-1, 0, -1)), S.vertex_near(sb, Vector3(1, 0, -1))]
	for p in pins:
		sb.set_point_pinned(p, true)
	add_child(sb)
	var free_mid := S.vertex_near(sb, Vector3(0, 0, 1))
	await ticks(480)
	var a := S.points(sb)
	await ticks(1)
	var b := S.points(sb)
	values = {
		"lowest": S.lowest(b),
		"free_edge_mid_y": b[free_mid].y,
		"free_edge_mid_z": b[free_mid].z,
		"pin_y": b[pins[0]].y,
		"last_tick_move": S.largest_move(a, b),
	}
	# The figures README quotes, per engine.
	print("  %s %s: %s" % [get_script().resource_path.get_file(), ProjectSettings.get_setting("physics/3d/physics_engine"), JSON.stringify(values)])


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	var j: Dictionary = by["Jolt Physics"]
	if m.is_empty() or j.is_empty():
		return out
	for p in [near("lowest point vs Jolt", m.lowest, j.lowest, 0.1),
			near("free edge's middle, height vs Jolt", m.free_edge_mid_y, j.free_edge_mid_y, 0.1),
			near("free edge's middle, z vs Jolt", m.free_edge_mid_z, j.free_edge_mid_z, 0.1),
			near("pinned corner's height", m.pin_y, 3.0, 1e-4)]:
		if p != "":
			out.append(p)
	if m.last_tick_move > 0.001:
		out.append("the cloth still moves after 8 s: %.4f m in a tick" % m.last_tick_move)
	return out
