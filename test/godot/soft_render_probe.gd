extends PhysicsServer3DRenderingServerHandler
# What `PhysicsServer3D.soft_body_update_rendering_server` writes (tests/test_soft_body.gd):
# each vertex's position and normal by index, and the bounds.

var vertices := {}
var normals := {}
var aabb := AABB()
var aabb_calls := 0


func _set_vertex(vertex_id: int, vertex: Vector3) -> void:
	vertices[vertex_id] = vertex


func _set_normal(vertex_id: int, normal: Vector3) -> void:
	normals[vertex_id] = normal


func _set_aabb(box: AABB) -> void:
	aabb = box
	aabb_calls += 1
