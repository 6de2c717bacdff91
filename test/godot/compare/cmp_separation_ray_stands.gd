extends "res://compare_case.gd"
# A CharacterBody3D whose only shape is a SeparationRayShape3D of length 1 pointing down
# falls from 1.5 m onto a floor and stands on the ray, 1 m above it, then walks.


func run() -> void:
	static_box(Vector3(20, 0.5, 20), Vector3(0, -0.5, 0))
	var c := CharacterBody3D.new()
	var shape := CollisionShape3D.new()
	var ray := SeparationRayShape3D.new()
	ray.length = 1.0
	shape.shape = ray
	shape.rotation_degrees = Vector3(90, 0, 0)
	c.add_child(shape)
	c.position = Vector3(0, 1.5, 0)
	add_child(c)
	var on_floor_ticks := 0
	for i in 120:
		await ticks(1)
		var vy := c.velocity.y - 9.8 / 60.0
		if c.is_on_floor() and vy < 0.0:
			vy = 0.0
		c.velocity = Vector3(2.0 if i >= 90 else 0.0, vy, 0)
		c.move_and_slide()
		if c.is_on_floor():
			on_floor_ticks += 1
	values = {"y": c.position.y, "x": c.position.x, "on_floor_ticks": on_floor_ticks}


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty() or m.is_empty():
			continue
		for p in [near("standing height vs " + e, m.y, r.y, 0.03),
				near("distance walked vs " + e, m.x, r.x, 0.1),
				near("ticks on the floor vs " + e, m.on_floor_ticks, r.on_floor_ticks, 6)]:
			if p != "":
				out.append(p)
	return out
