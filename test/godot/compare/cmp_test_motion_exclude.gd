extends "res://compare_case.gd"
# body_test_motion toward a wall: stopped by it, and not when the wall is excluded
# (PhysicsTestMotionParameters3D.exclude_bodies / exclude_objects) or excepted
# (add_collision_exception_with).


func run() -> void:
	static_box(Vector3(20, 0.5, 20), Vector3(0, -0.5, 0))
	var wall := static_box(Vector3(0.5, 1.5, 5), Vector3(3.5, 1.5, 0))
	var c := CharacterBody3D.new()
	var shape := CollisionShape3D.new()
	var capsule := CapsuleShape3D.new()
	capsule.radius = 0.4
	capsule.height = 1.8
	shape.shape = capsule
	c.add_child(shape)
	c.position = Vector3(0, 1.0, 0)
	add_child(c)
	await ticks(2)
	var params := PhysicsTestMotionParameters3D.new()
	params.from = c.global_transform
	params.motion = Vector3(5, 0, 0)
	var result := PhysicsTestMotionResult3D.new()
	var hit := PhysicsServer3D.body_test_motion(c.get_rid(), params, result)
	var travel := result.get_travel().x
	params.exclude_bodies = [wall.get_rid()]
	var hit_excluded := PhysicsServer3D.body_test_motion(c.get_rid(), params, result)
	var travel_excluded := result.get_travel().x
	params.exclude_bodies = []
	params.exclude_objects = [wall.get_instance_id()]
	var hit_by_object := PhysicsServer3D.body_test_motion(c.get_rid(), params, result)
	# A collision exception leaves the wall out of the motion test too.
	params.exclude_objects = []
	c.add_collision_exception_with(wall)
	var hit_with_exception := PhysicsServer3D.body_test_motion(c.get_rid(), params, result)
	c.remove_collision_exception_with(wall)
	values = {
		"hit": hit,
		"travel": travel,
		"hit_excluded": hit_excluded,
		"travel_excluded": travel_excluded,
		"hit_by_object": hit_by_object,
		"hit_with_exception": hit_with_exception,
	}


func judge(by: Dictionary) -> PackedStringArray:
	var out := PackedStringArray()
	var m: Dictionary = by["Maul3D"]
	for e in ["GodotPhysics3D", "Jolt Physics"]:
		var r: Dictionary = by[e]
		if r.is_empty() or m.is_empty():
			continue
		for k in ["hit", "hit_excluded", "hit_by_object", "hit_with_exception"]:
			if m[k] != r[k]:
				out.append("%s: %s vs %s's %s" % [k, m[k], e, r[k]])
		for p in [near("travel vs " + e, m.travel, r.travel, 0.05),
				near("travel excluded vs " + e, m.travel_excluded, r.travel_excluded, 0.01)]:
			if p != "":
				out.append(p)
	return out
